import { LitElement, html, svg, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { notifier } from 'notifier';
import '@vaadin/button';
import '@vaadin/text-field';
import '@vaadin/icon';

/**
 * The jobs of the application: each job's identity, its flow graph (nodes with their kind and start
 * limit, transitions labelled with the exit-code pattern they match) and a form to start it.
 * The graph is drawn in plain SVG: the Dev UI runs without network access to any library.
 */
export class QwcDurableBatchJobs extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 16px; padding: 10px; }
        .job { border: 1px solid var(--lumo-contrast-20pct); border-radius: 8px; padding: 12px; }
        .header { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
        .name { font-size: var(--lumo-font-size-l); font-weight: bold; }
        .meta { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-s); }
        code { font-size: 85%; }
        .graph { overflow-x: auto; }
        .start { display: flex; gap: 8px; align-items: end; }
        .start vaadin-text-field { width: 420px; }
        table { border-collapse: collapse; font-size: var(--lumo-font-size-s); }
        td, th { padding: 2px 10px; text-align: left; }
        svg text { font-family: var(--lumo-font-family); fill: var(--lumo-body-text-color); }
        .node rect { fill: var(--lumo-contrast-5pct); stroke: var(--lumo-primary-color); stroke-width: 1.5; }
        .node.decider rect { stroke: var(--lumo-warning-color, orange); }
        .node.terminal rect { fill: var(--lumo-contrast-10pct); stroke: var(--lumo-contrast-50pct); }
        .edge { stroke: var(--lumo-contrast-60pct); stroke-width: 1.3; fill: none; }
        .label { font-size: 11px; fill: var(--lumo-contrast-70pct); }
    `;

    static properties = {
        _jobs: { state: true },
        _parameters: { state: true }
    };

    constructor() {
        super();
        this._parameters = {};
    }

    connectedCallback() {
        super.connectedCallback();
        this.jsonRpc.jobs().then(response => { this._jobs = response.result; });
    }

    render() {
        if (!this._jobs) {
            return html`<span>Loading the jobs...</span>`;
        }
        if (this._jobs.length === 0) {
            return html`<span>This application defines no job.</span>`;
        }
        return html`${this._jobs.map(job => this._renderJob(job))}`;
    }

    _renderJob(job) {
        return html`
            <div class="job">
                <div class="header">
                    <span class="name">${job.name}</span>
                    <span class="meta">revision <code>${job.revision}</code></span>
                    <span class="meta">plan <code title="${job.fingerprint}">${job.fingerprint.substring(0, 12)}</code></span>
                    <span class="meta">${job.restartOnOwnerLoss == null
                        ? 'not restarted on owner loss'
                        : `restarted up to ${job.restartOnOwnerLoss} time(s) on owner loss`}</span>
                </div>
                <div class="graph">${this._renderGraph(job)}</div>
                ${job.transitions.length === 0 ? html`<div class="meta">One step: the job ends with it.</div>` : html`
                <table>
                    <tr><th>from</th><th>on exit code</th><th>then</th><th>to</th></tr>
                    ${job.transitions.map(t => html`
                        <tr><td><code>${t.from}</code></td><td><code>${t.on}</code></td><td>${t.kind}</td>
                            <td>${t.to ? html`<code>${t.to}</code>` : ''}</td></tr>`)}
                </table>`}
                <div class="start">
                    <vaadin-text-field label="Identifying parameters (JSON object)" placeholder='{"file": "orders.csv", "day": 1}'
                        .value=${this._parameters[job.name] || ''}
                        @value-changed=${e => { this._parameters = { ...this._parameters, [job.name]: e.detail.value }; }}>
                    </vaadin-text-field>
                    <vaadin-button theme="primary" @click=${() => this._start(job.name)}>
                        <vaadin-icon icon="font-awesome-solid:play" slot="prefix"></vaadin-icon>Start
                    </vaadin-button>
                </div>
            </div>`;
    }

    /** Layers the nodes by their distance from the start node and draws each transition as an arrow. */
    _renderGraph(job) {
        const nodes = new Map(job.nodes.map(n => [n.id, { ...n, terminal: false }]));
        const edges = job.transitions.map(t => ({ ...t, target: t.to || `${t.kind}:${t.from}` }));
        edges.filter(e => !e.to).forEach(e => nodes.set(e.target, { id: e.target, kind: e.kind, terminal: true }));
        const layer = new Map([[job.startNode, 0]]);
        const queue = [job.startNode];
        while (queue.length) {
            const from = queue.shift();
            edges.filter(e => e.from === from && !layer.has(e.target)).forEach(e => {
                layer.set(e.target, layer.get(from) + 1);
                queue.push(e.target);
            });
        }
        let unreachable = Math.max(0, ...layer.values()) + 1;
        nodes.forEach((n, id) => { if (!layer.has(id)) layer.set(id, unreachable); });
        const rows = new Map();
        const width = 170, height = 46, gapX = 90, gapY = 40;
        nodes.forEach((n, id) => {
            const l = layer.get(id);
            const row = rows.get(l) || 0;
            rows.set(l, row + 1);
            n.x = 10 + l * (width + gapX);
            n.y = 10 + row * (height + gapY);
        });
        const totalWidth = 20 + (Math.max(...layer.values()) + 1) * (width + gapX);
        const totalHeight = 20 + Math.max(...rows.values()) * (height + gapY);
        return html`
            <svg width="${totalWidth}" height="${totalHeight}" role="img" aria-label="flow of ${job.name}">
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto">
                        <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor"></path>
                    </marker>
                </defs>
                ${edges.map((e, i) => this._renderEdge(e, nodes.get(e.from), nodes.get(e.target), width, height, i))}
                ${[...nodes.values()].map(n => this._renderNode(n, width, height, n.id === job.startNode))}
            </svg>`;
    }

    _renderNode(n, width, height, start) {
        const title = n.terminal ? n.kind : n.id;
        const detail = n.terminal ? 'job ends' : `${n.kind}${n.startLimit > 0 ? `, start limit ${n.startLimit}` : ''}`;
        return svg`
            <g class="node ${n.terminal ? 'terminal' : ''} ${n.kind.startsWith('decision') ? 'decider' : ''}">
                <rect x="${n.x}" y="${n.y}" width="${width}" height="${height}" rx="8"></rect>
                <text x="${n.x + 10}" y="${n.y + 19}" font-weight="bold">${start ? '▶ ' : ''}${title}</text>
                <text x="${n.x + 10}" y="${n.y + 36}" class="label">${detail}</text>
            </g>`;
    }

    _renderEdge(e, from, to, width, height, index) {
        if (!from || !to) {
            return svg``;
        }
        const x1 = from.x + width, y1 = from.y + height / 2;
        let path, lx, ly;
        if (to.x === from.x && to.y !== from.y) {
            // within one layer (two branches that meet): an arc out on the right
            const y2 = to.y + height / 2;
            path = `M ${x1} ${y1} C ${x1 + 45} ${y1}, ${x1 + 45} ${y2}, ${x1} ${y2}`;
            lx = x1 + 36; ly = (y1 + y2) / 2;
        } else if (to.x > from.x) {
            const x2 = to.x, y2 = to.y + height / 2;
            path = `M ${x1} ${y1} C ${x1 + 40} ${y1}, ${x2 - 40} ${y2}, ${x2} ${y2}`;
            lx = (x1 + x2) / 2 - 30; ly = (y1 + y2) / 2 - 4;
        } else {
            // an edge back (a stop that restarts at an earlier node, a loop): an arc below the nodes
            const x2 = to.x + width / 2, y2 = to.y + height;
            const dip = Math.max(from.y, to.y) + height + 30 + 8 * (index % 3);
            path = `M ${from.x + width / 2} ${from.y + height} C ${from.x + width / 2} ${dip}, ${x2} ${dip}, ${x2} ${y2}`;
            lx = (from.x + x2) / 2 + width / 4; ly = dip - 10;
        }
        return svg`
            <g style="color: var(--lumo-contrast-60pct)">
                <path class="edge" d="${path}" marker-end="url(#arrow)"></path>
                <text x="${lx}" y="${ly}" class="label">${e.on}${e.kind === 'NEXT' ? '' : ` (${e.kind})`}</text>
            </g>`;
    }

    _start(jobName) {
        const text = (this._parameters[jobName] || '').trim();
        let parameters = {};
        if (text) {
            try {
                parameters = JSON.parse(text);
            } catch (e) {
                notifier.showErrorMessage(`The parameters are not a JSON object: ${e.message}`);
                return;
            }
        }
        this.jsonRpc.start({ job: jobName, parameters }).then(response => {
            const result = response.result;
            if (result.success) {
                notifier.showSuccessMessage(result.message);
            } else {
                notifier.showErrorMessage(result.message.startsWith(result.error) ? result.message : `${result.error}: ${result.message}`);
            }
        });
    }
}
customElements.define('qwc-durable-batch-jobs', QwcDurableBatchJobs);
