package org.qsnet.fabric.transport;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.qsnet.fabric.QsnetException;

/**
 * Challenge–response with the job key: each side sends a fresh nonce and proves it holds the key
 * with HMAC-SHA256 over both nonces, the job id, both partitions and its role; the key itself never
 * travels. A proof cannot be replayed on another connection (the other side's nonce is fresh) nor
 * reflected (the role label differs).
 */
public final class JobAuthenticator
{
    /** Nonce length in bytes. */
    public static final int NONCE_BYTES = 32;
    /** Proof (HMAC-SHA256) length in bytes. */
    public static final int PROOF_BYTES = 32;
    /** Role label of the accepting (server, or ring creator) side. */
    public static final byte ROLE_ACCEPTOR = 'S';
    /** Role label of the connecting (client, or ring attacher) side. */
    public static final byte ROLE_CONNECTOR = 'C';

    private static final SecureRandom RANDOM = new SecureRandom();

    private final long jobId;
    private final Mac mac;

    /**
     * Creates an authenticator for one job.
     *
     * @param jobId  the job id.
     * @param jobKey the job key.
     */
    public JobAuthenticator(final long jobId, final byte[] jobKey)
    {
        this.jobId = jobId;
        try
        {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(jobKey, "HmacSHA256"));
        }
        catch (final GeneralSecurityException e)
        {
            throw new QsnetException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /**
     * The job id this authenticator proves.
     *
     * @return the job id.
     */
    public long jobId()
    {
        return jobId;
    }

    /**
     * A fresh random nonce.
     *
     * @return {@link #NONCE_BYTES} bytes from a {@link SecureRandom}.
     */
    public static byte[] nonce()
    {
        final byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * Computes the proof of one side.
     *
     * @param role                {@link #ROLE_ACCEPTOR} or {@link #ROLE_CONNECTOR}.
     * @param connectorPartition  the connecting side's partition.
     * @param acceptorPartition   the accepting side's partition.
     * @param connectorNonce      the connecting side's nonce.
     * @param acceptorNonce       the accepting side's nonce.
     * @return {@link #PROOF_BYTES} bytes.
     */
    public synchronized byte[] proof(final byte role, final int connectorPartition, final int acceptorPartition,
        final byte[] connectorNonce, final byte[] acceptorNonce)
    {
        final ByteBuffer fixed = ByteBuffer.allocate(1 + 8 + 4 + 4);
        fixed.put(role).putLong(jobId).putInt(connectorPartition).putInt(acceptorPartition);
        mac.reset();
        mac.update(fixed.array());
        mac.update(connectorNonce);
        mac.update(acceptorNonce);
        return mac.doFinal();
    }

    /**
     * Checks a proof in constant time.
     *
     * @param expected the proof computed locally.
     * @param received the proof received.
     * @return true if they are equal.
     */
    public static boolean matches(final byte[] expected, final byte[] received)
    {
        return MessageDigest.isEqual(expected, received);
    }
}
