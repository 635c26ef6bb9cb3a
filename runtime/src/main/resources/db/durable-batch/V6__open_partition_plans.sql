-- Workers in other processes look for open partition plans: running flow steps (parents) that still
-- have unassigned partitions. Only running flow steps are indexed (worker attempts have no node id),
-- so the index holds the steps running right now, whatever the size of the history.
CREATE INDEX ${prefix}step_execution_running_node_ix ON ${prefix}step_execution (id)
    WHERE status = 'STARTED' AND node_id IS NOT NULL;
