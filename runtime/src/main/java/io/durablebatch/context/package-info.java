/**
 * What running code is given: the job's, the step's, a decision's and a partition's context, each
 * valid for the execution it was handed for.
 */
package io.durablebatch.context;
