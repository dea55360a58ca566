package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With {@code crcErrorRate} set, {@code ping} and {@code traffic} report the retries the errors
 * cost (and that nothing was duplicated); without it, zeros.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LinkErrorReportTest
{
    private static String run(final String... args)
    {
        final String[] r = Captured.run(QsnetCommand::execute, args);
        assertEquals("0", r[0], r[2]);
        return r[1];
    }

    private static JsonNode rows(final String json) throws Exception
    {
        final JsonNode root = new ObjectMapper().readTree(json);
        return root.has("rows") ? root.get("rows") : root.get("tables").get(0).get("rows");
    }

    @Test
    void shouldReportRetriesInPingOutputUnderLinkErrors() throws Exception
    {
        final JsonNode lossy = rows(run("ping", "--sizes", "4096,65536", "--set", "crcErrorRate=0.05", "--format", "json"));
        long retries = 0;
        for (final JsonNode r : lossy)
        {
            retries += r.get("crc_retries").asLong();
            assertEquals(0, r.get("dup_discarded").asLong());
        }
        assertTrue(retries > 0, "retries reported: " + lossy);
        for (final JsonNode r : rows(run("ping", "--sizes", "4096", "--format", "json")))
        {
            assertEquals(0, r.get("crc_retries").asLong());
        }
    }

    @Test
    void shouldReportRetriesInTrafficOutputUnderLinkErrors() throws Exception
    {
        final JsonNode r = rows(run("traffic", "-n", "16", "--loads", "0.5", "--set", "crcErrorRate=0.05", "--format", "json"));
        assertTrue(r.get(0).get("crc_retries").asLong() > 0, r.toString());
        final JsonNode nic = rows(run("traffic", "-n", "16", "--loads", "0.5", "--injection", "nic", "--set", "crcErrorRate=0.05",
            "--format", "json"));
        assertTrue(nic.get(0).get("crc_retries").asLong() > 0, nic.toString());
        assertEquals(0, nic.get(0).get("dup_discarded").asLong());
    }
}
