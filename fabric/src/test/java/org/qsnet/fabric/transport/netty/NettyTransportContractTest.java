package org.qsnet.fabric.transport.netty;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.ExtendWith;
import org.qsnet.fabric.transport.Jobs;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportContractTest;

/** The transport contract, over TCP on loopback, with Netty's leak detector at paranoid level. */
@ExtendWith(NettyLeakCheck.class)
class NettyTransportContractTest extends TransportContractTest
{
    @Override
    protected List<Transport> createJob(final TransportContext context)
    {
        final int n = context.partitionCount();
        final List<NettyTransport> endpoints = new ArrayList<>();
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (int p = 0; p < n; p++)
        {
            final NettyTransport t = NettyTransport.open(context.forPartition(p));
            endpoints.add(t);
            addresses.add(t.localAddress());
        }
        return List.copyOf(Jobs.openInParallel(n, p ->
        {
            endpoints.get(p).connect(addresses);
            return endpoints.get(p);
        }));
    }
}
