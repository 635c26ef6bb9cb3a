package io.durablebatch.runtime.job;

import java.net.InetAddress;
import java.net.UnknownHostException;

import jakarta.inject.Singleton;

import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.sql.ProcessSessions;

/**
 * Who this process is: its node id (configured, or the host name) and a boot id drawn at startup
 * (the one its repository sessions are marked with, {@link ProcessSessions}).
 * Together they are the {@link OwnerToken} it claims the executions it runs with: evidence of which
 * run of which node started an attempt.
 */
@Singleton
public class KernelIdentity {

    private final String nodeId;
    private final boolean nodeIdConfigured;
    private final String bootId;
    private final OwnerToken owner;

    KernelIdentity(DurableBatchConfig config, ProcessSessions sessions) {
        this.bootId = sessions.bootId();
        this.nodeIdConfigured = config.nodeId().isPresent();
        this.nodeId = sanitized(config.nodeId().orElseGet(KernelIdentity::hostName));
        this.owner = OwnerToken.of(nodeId + "/" + bootId);
    }

    public OwnerToken owner() {
        return owner;
    }

    /** The boot id of this run of the application: the suffix of its owner token and the mark of its batch sessions. */
    public String bootId() {
        return bootId;
    }

    public String nodeId() {
        return nodeId;
    }

    boolean nodeIdConfigured() {
        return nodeIdConfigured;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "node";
        }
    }

    /** An owner token is a token: characters it cannot hold become {@code -}; the boot id needs 9 of its 200. */
    private static String sanitized(String name) {
        StringBuilder id = new StringBuilder();
        name.chars()
                .forEach(c -> id.append(Character.isLetterOrDigit(c) && c < 128 || "_-.:@".indexOf(c) >= 0 ? (char) c : '-'));
        String value = id.length() == 0 ? "node" : id.toString();
        return value.length() > 180 ? value.substring(0, 180) : value;
    }
}
