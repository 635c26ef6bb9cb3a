import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { notifier } from 'notifier';
import { columnBodyRenderer } from '@vaadin/grid/lit.js';
import '@vaadin/grid';
import '@vaadin/button';
import '@vaadin/text-field';
import '@vaadin/icon';
import '@vaadin/progress-bar';

const PAGE_SIZE = 25;
const ACTIVE = ['STARTING', 'STARTED', 'STOPPING'];

/**
 * The latest job executions, newest first, with their status, items and (for a running chunk step
 * whose input size is known) progress and ETA; a drill-down into one execution: its parameters,
 * ownership and lease, steps with counters, flow decisions and partitions; and the operator's
 * actions stop, restart and recover. A refusal comes back as an answer naming its error code.
 */
export class QwcDurableBatchExecutions extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 10px; padding: 10px; height: 100%; }
        .bar { display: flex; gap: 8px; align-items: end; }
        .detail { border-top: 1px solid var(--lumo-contrast-20pct); padding-top: 8px; }
        .detail h3 { margin: 6px 0; font-size: var(--lumo-font-size-m); }
        table { border-collapse: collapse; font-size: var(--lumo-font-size-s); }
        td, th { padding: 2px 10px; text-align: left; vertical-align: top; }
        .status-COMPLETED { color: var(--lumo-success-text-color); }
        .status-FAILED, .status-ABANDONED, .status-UNKNOWN { color: var(--lumo-error-text-color); }
        .status-STARTED, .status-STARTING, .status-STOPPING { color: var(--lumo-primary-text-color); }
        .failure { color: var(--lumo-error-text-color); font-size: var(--lumo-font-size-s); }
        .muted { color: var(--lumo-contrast-60pct); }
        vaadin-progress-bar { width: 70px; display: inline-block; }
    `;

    static properties = {
        _executions: { state: true },
        _next: { state: true },
        _job: { state: true },
        _detail: { state: true },
        _partitions: { state: true }
    };

    constructor() {
        super();
        this._executions = null;
        this._job = '';
    }

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        // running executions move: refresh the list and the open detail every few seconds
        this._timer = setInterval(() => this._refresh(), 3000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.executions({ job: this._job, after: '', size: PAGE_SIZE }).then(response => {
            this._executions = response.result.items;
            this._next = response.result.next;
        });
        if (this._detail) {
            this._open(this._detail.execution.id, false);
        }
    }

    _more() {
        this.jsonRpc.executions({ job: this._job, after: this._next, size: PAGE_SIZE }).then(response => {
            this._executions = [...this._executions, ...response.result.items];
            this._next = response.result.next;
        });
    }

    render() {
        if (!this._executions) {
            return html`<span>Loading the executions...</span>`;
        }
        return html`
            <div class="bar">
                <vaadin-text-field label="Job" placeholder="all jobs" clear-button-visible .value=${this._job}
                    @change=${e => { this._job = e.target.value; this._refresh(); }}></vaadin-text-field>
                <vaadin-button @click=${() => this._refresh()}>
                    <vaadin-icon icon="font-awesome-solid:rotate" slot="prefix"></vaadin-icon>Refresh</vaadin-button>
                ${this._next ? html`<vaadin-button @click=${() => this._more()}>Older executions</vaadin-button>` : ''}
            </div>
            <vaadin-grid .items=${this._executions} theme="row-stripes compact" all-rows-visible>
                <vaadin-grid-column header="Execution" width="110px" flex-grow="0" ${columnBodyRenderer(e => html`
                    <vaadin-button theme="tertiary small" @click=${() => this._open(e.id, true)}>#${e.id}</vaadin-button>`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Job" auto-width ${columnBodyRenderer(e => html`${e.jobName}`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Instance / attempt" width="130px" flex-grow="0" ${columnBodyRenderer(e => html`
                    <span class="muted">${e.instanceId} / ${e.attempt}</span>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Status" auto-width ${columnBodyRenderer(e => html`
                    <span class="status-${e.status}">${e.status}</span>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Read / written / skipped" auto-width ${columnBodyRenderer(e => html`
                    ${e.readCount} / ${e.writeCount} / ${e.skipCount}`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Progress" width="270px" flex-grow="0" ${columnBodyRenderer(e => this._renderProgress(e.progress), [])}></vaadin-grid-column>
                <vaadin-grid-column header="Started" width="180px" flex-grow="0" ${columnBodyRenderer(e => html`${this._time(e.startedAt || e.createdAt)}`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Actions" auto-width ${columnBodyRenderer(e => this._renderActions(e), [])}></vaadin-grid-column>
            </vaadin-grid>
            ${this._detail ? this._renderDetail(this._detail) : html`<span class="muted">Select an execution to see its steps.</span>`}`;
    }

    _renderProgress(progress) {
        if (!progress) {
            return html`<span class="muted">—</span>`;
        }
        return html`<span title="${progress.step}: ${progress.read} of ${progress.size} read">
            <span class="muted">${progress.step}</span>
            <vaadin-progress-bar value=${progress.percent / 100}></vaadin-progress-bar>
            ${progress.percent.toFixed(0)}%${progress.etaSeconds != null
                ? html`<span class="muted">, ETA ${this._duration(progress.etaSeconds)}</span>` : ''}</span>`;
    }

    _renderActions(e) {
        const active = ACTIVE.includes(e.status);
        return html`
            ${active ? html`<vaadin-button theme="small" @click=${() => this._act('stop', { id: e.id })}>Stop</vaadin-button>` : ''}
            ${e.status === 'STOPPED' || e.status === 'FAILED'
                ? html`<vaadin-button theme="small" @click=${() => this._act('restart', { id: e.id })}>Restart</vaadin-button>` : ''}
            ${active || e.status === 'UNKNOWN' ? html`
                <vaadin-button theme="small error" title="Resolve an orphaned execution as FAILED (restartable)"
                    @click=${() => this._act('recover', { id: e.id, resolution: 'FAILED', observedVersion: e.version })}>Recover</vaadin-button>` : ''}`;
    }

    _renderDetail(d) {
        const e = d.execution;
        return html`
            <div class="detail">
                <h3>Execution #${e.id} of ${e.jobName}: <span class="status-${e.status}">${e.status}</span>
                    <span class="muted">exit code ${e.exitCode}, version ${e.version}</span></h3>
                ${e.failure ? html`<div class="failure">${e.failure}</div>` : ''}
                <table>
                    <tr><th>Parameters</th><td>${Object.keys(d.parameters).length === 0 ? html`<span class="muted">none</span>`
                        : Object.entries(d.parameters).map(([k, v]) => html`<code>${k}=${v}</code> `)}</td></tr>
                    <tr><th>Created / started / ended</th><td>${this._time(e.createdAt)} / ${this._time(e.startedAt)} / ${this._time(e.endedAt)}</td></tr>
                    ${d.ownership ? html`
                        <tr><th>Owner</th><td>${d.ownership.owner || html`<span class="muted">none</span>`}
                            ${d.ownership.leaseExpiresAt && ACTIVE.includes(e.status) ? html`, lease ${d.ownership.leaseLive ? 'live' : 'expired'} until ${this._time(d.ownership.leaseExpiresAt)}` : ''}</td></tr>
                        ${d.ownership.stopRequestedAt ? html`<tr><th>Stop requested</th>
                            <td>${this._time(d.ownership.stopRequestedAt)} by ${d.ownership.stopRequestedBy}</td></tr>` : ''}` : ''}
                    ${d.recovery ? html`<tr><th>Recovered</th><td>to ${d.recovery.resolution} by ${d.recovery.actor}
                        (${d.recovery.reason}) from ${d.recovery.observedStatus}, ${d.recovery.resolvedSteps} step(s), ${this._time(d.recovery.decidedAt)}</td></tr>` : ''}
                </table>
                <h3>Steps</h3>
                <table>
                    <tr><th>Step</th><th>Status</th><th>Exit code</th><th>Read</th><th>Written</th><th>Filtered</th><th>Skipped</th>
                        <th>Commits</th><th>Rollbacks</th><th>Progress</th><th></th></tr>
                    ${d.steps.map(s => html`
                        <tr><td>${s.name} <span class="muted">#${s.id}</span></td><td class="status-${s.status}">${s.status}</td>
                            <td>${s.exitCode}</td><td>${s.readCount}</td><td>${s.writeCount}</td><td>${s.filterCount}</td>
                            <td>${s.skipCount}</td><td>${s.commitCount}</td><td>${s.rollbackCount}</td>
                            <td>${this._renderProgress(s.progress)}</td>
                            <td>${s.partitioned ? html`<vaadin-button theme="tertiary small"
                                @click=${() => this._openPartitions(s.id, '')}>Partitions</vaadin-button>` : ''}</td></tr>
                        ${s.failure ? html`<tr><td></td><td colspan="10" class="failure">${s.failure}</td></tr>` : ''}`)}
                </table>
                ${d.decisions.length ? html`
                    <h3>Flow decisions</h3>
                    <table>
                        <tr><th>#</th><th>From</th><th>On</th><th>Then</th><th>To</th><th>At</th></tr>
                        ${d.decisions.map(f => html`<tr><td>${f.sequence}</td><td>${f.from}</td><td><code>${f.outcome}</code></td>
                            <td>${f.kind}</td><td>${f.to || ''}</td><td>${this._time(f.decidedAt)}</td></tr>`)}
                    </table>` : ''}
                ${d.audit.length ? html`
                    <h3>Operator requests on this instance</h3>
                    <table>
                        <tr><th>Action</th><th>Actor</th><th>Execution</th><th>Outcome</th><th>At</th></tr>
                        ${d.audit.map(a => html`<tr><td>${a.action}</td><td>${a.actor}</td><td>${a.execution != null ? '#' + a.execution : ''}</td>
                            <td>${a.outcome}</td><td>${this._time(a.recordedAt)}</td></tr>`)}
                    </table>` : ''}
                ${this._partitions ? this._renderPartitions(this._partitions) : ''}
            </div>`;
    }

    _renderPartitions(p) {
        return html`
            <h3>Partitions of step #${p.step}</h3>
            <table>
                <tr><th>#</th><th>Key</th><th>Status</th><th>Worker</th><th>Exit code</th><th>Read</th><th>Written</th>
                    <th>Skipped</th><th>Releases</th><th>Completed</th></tr>
                ${p.items.map(x => html`<tr><td>${x.ordinal}</td><td><code>${x.key}</code></td><td class="status-${x.status}">${x.status}</td>
                    <td>${x.worker != null ? '#' + x.worker : ''}</td><td>${x.exitCode}</td><td>${x.readCount}</td><td>${x.writeCount}</td>
                    <td>${x.skipCount}</td><td>${x.releaseCount}</td><td>${this._time(x.completedAt)}</td></tr>`)}
            </table>
            ${p.next ? html`<vaadin-button theme="small" @click=${() => this._openPartitions(p.step, p.next, p.items)}>More partitions</vaadin-button>` : ''}`;
    }

    _open(id, fresh) {
        if (fresh) {
            this._partitions = null;
        }
        this.jsonRpc.execution({ id }).then(response => { this._detail = response.result; });
    }

    _openPartitions(step, after, before = []) {
        this.jsonRpc.partitions({ stepExecutionId: step, after, size: 100 }).then(response => {
            this._partitions = { step, items: [...before, ...response.result.items], next: response.result.next };
        });
    }

    _act(method, args) {
        this.jsonRpc[method](args).then(response => {
            const result = response.result;
            if (result.success) {
                notifier.showSuccessMessage(result.message);
            } else {
                notifier.showErrorMessage(result.message.startsWith(result.error) ? result.message : `${result.error}: ${result.message}`);
            }
            this._refresh();
        });
    }

    _time(text) {
        return text ? new Date(text).toLocaleString() : '—';
    }

    _duration(seconds) {
        const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
        return h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s}s` : `${s}s`;
    }
}
customElements.define('qwc-durable-batch-executions', QwcDurableBatchExecutions);
