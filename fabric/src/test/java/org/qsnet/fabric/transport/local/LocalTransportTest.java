package org.qsnet.fabric.transport.local;

import java.util.List;

import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportContractTest;

/** The transport contract, in-JVM. */
class LocalTransportTest extends TransportContractTest
{
    @Override
    protected List<Transport> createJob(final TransportContext context)
    {
        return List.copyOf(LocalTransport.createJob(context));
    }
}
