package org.qsnet.fabric.transport;

import java.nio.ByteBuffer;

/**
 * Receives the frames delivered by {@link Transport#poll(FrameHandler, int)}, on the polling thread.
 */
@FunctionalInterface
public interface FrameHandler
{
    /**
     * Handles one frame. The payload is a view valid only during the call: its bytes are between
     * its position and limit; copy them to keep them. The handler may change the view's position
     * and limit but not the bytes.
     *
     * @param peer    the partition that sent the frame.
     * @param type    the application frame type, in {@link FrameDescriptor#MIN_APPLICATION_TYPE}..{@link FrameDescriptor#MAX_TYPE}.
     * @param timeNs  the first opaque field (by convention a simulated time).
     * @param key     the second opaque field (by convention an ordering key).
     * @param payload the payload bytes, from position to limit.
     */
    void onFrame(int peer, int type, long timeNs, long key, ByteBuffer payload);
}
