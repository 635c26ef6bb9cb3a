import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { notifier } from 'notifier';
import '@vaadin/button';

/**
 * The schedules of the application's jobs: cron, time zone, policies, the next fire times, the last
 * fire with what became of it and its execution, and a button to pause or resume each (audited,
 * as actor dev-ui; the state is in the repository, so every replica honours it).
 */
export class QwcDurableBatchSchedules extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 12px; padding: 10px; }
        table { border-collapse: collapse; font-size: var(--lumo-font-size-s); }
        td, th { padding: 4px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid var(--lumo-contrast-10pct); }
        .paused { color: var(--lumo-error-text-color); font-weight: bold; }
        code { font-size: 90%; }
    `;

    static properties = {
        _schedules: { state: true }
    };

    connectedCallback() {
        super.connectedCallback();
        this._load();
    }

    _load() {
        this.jsonRpc.schedules().then(response => { this._schedules = response.result; });
    }

    render() {
        if (!this._schedules) {
            return html`<span>Loading schedules...</span>`;
        }
        if (this._schedules.length === 0) {
            return html`<span>No job has a schedule: declare one with <code>Job.named(..).schedule(..)</code> or
                <code>quarkus.durable-batch.jobs."name".schedule.cron</code>.</span>`;
        }
        return html`<table>
            <tr><th>Job</th><th>Cron</th><th>Policies</th><th>State</th><th>Next fires</th><th>Last fire</th><th></th></tr>
            ${this._schedules.map(s => html`<tr>
                <td><b>${s.job}</b></td>
                <td><code>${s.cron}</code><br>${s.timeZone}</td>
                <td>misfire ${s.misfirePolicy}<br>overlap ${s.overlap}</td>
                <td>${!s.enabled ? 'disabled' : s.paused ? html`<span class="paused">paused</span> by ${s.pausedBy}` : 'running'}</td>
                <td>${s.nextFireTimes.map(t => html`${t}<br>`)}</td>
                <td>${s.lastFireTime ?? ''}<br>${s.lastOutcome ?? ''}${s.lastExecution ? html` (execution ${s.lastExecution})` : ''}</td>
                <td>${s.paused
                    ? html`<vaadin-button theme="primary" @click=${() => this._act('resumeSchedule', s.job)}>Resume</vaadin-button>`
                    : html`<vaadin-button @click=${() => this._act('pauseSchedule', s.job)}>Pause</vaadin-button>`}</td>
            </tr>`)}
        </table>`;
    }

    _act(method, job) {
        this.jsonRpc[method]({ job }).then(response => {
            const result = response.result;
            if (result.success) {
                notifier.showSuccessMessage(result.message);
            } else {
                notifier.showErrorMessage(`${result.error}: ${result.message}`);
            }
            this._load();
        });
    }
}
customElements.define('qwc-durable-batch-schedules', QwcDurableBatchSchedules);
