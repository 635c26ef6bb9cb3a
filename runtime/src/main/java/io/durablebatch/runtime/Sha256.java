package io.durablebatch.runtime;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256, the digest of instance keys, request and input digests. */
public final class Sha256 {

    /** The length of a digest in bytes. */
    public static final int LENGTH = 32;

    private Sha256() {
    }

    public static byte[] of(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
