package org.acme.samples;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** An item a step skipped, and why: a row the skip listener {@link RejectedOrders} writes. */
@Entity
public class Rejected {

    @Id
    @GeneratedValue
    Long id;

    long jobExecutionId;

    String item;

    String reason;

    protected Rejected() {
    }

    Rejected(long jobExecutionId, String item, String reason) {
        this.jobExecutionId = jobExecutionId;
        this.item = item;
        this.reason = reason;
    }
}
