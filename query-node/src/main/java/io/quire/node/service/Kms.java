package io.quire.node.service;

import io.quire.journal.model.Kek;

/**
 * The port to the KMSes this node can reach, for shared KEKs: the registry itself makes a DEK
 * and wraps it with the KEK's KMS key, and unwraps it for clients that ask. A client's own KMS
 * (a KEK that is not shared) is never used here.
 */
public interface Kms {

    /** Whether this node can wrap and unwrap with keys of this KMS type. */
    boolean supports(String kmsType);

    /** The DEK material wrapped with the KEK's KMS key. */
    byte[] wrap(Kek kek, byte[] material);

    /**
     * The DEK material a wrapped one holds.
     *
     * @throws IllegalArgumentException when the KMS key does not open it (another secret, or tampered)
     */
    byte[] unwrap(Kek kek, byte[] wrapped);

    /** No KMS at all: shared KEKs cannot make keys. */
    Kms NONE = new Kms() {
        @Override
        public boolean supports(String kmsType) {
            return false;
        }

        @Override
        public byte[] wrap(Kek kek, byte[] material) {
            throw new UnsupportedOperationException(kek.kmsType());
        }

        @Override
        public byte[] unwrap(Kek kek, byte[] wrapped) {
            throw new UnsupportedOperationException(kek.kmsType());
        }
    };
}
