/**
 * What the repository keeps of flows: recorded decisions and the state of each step in a flow.
 */
package io.durablebatch.repository.flow;
