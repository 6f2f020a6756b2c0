import type { Response } from 'express';
import { CHANNELS, TERMINAL_STATUSES, type NotificationView } from '@notify/core';
import { escapeHtml as e, sendPage } from './pages';
import type { TimelineEntry } from './timeline';

const STYLE = `body{font:15px system-ui,sans-serif;background:#f4f5f7;color:#1d2433;margin:0}
header{background:#1d2433;color:#fff;padding:.7rem 1.5rem;display:flex;gap:1.5rem;align-items:center}
header a{color:#fff}header strong{margin-right:auto}main{max-width:72rem;margin:1.5rem auto;padding:0 1.5rem}
section{background:#fff;border-radius:8px;box-shadow:0 1px 6px #0002;padding:1rem 1.5rem;margin-bottom:1.5rem}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:0}form{display:flex;flex-wrap:wrap;gap:.8rem 1.2rem;align-items:flex-end}
label{display:flex;flex-direction:column;font-size:.85rem;gap:.2rem}input,select{font:inherit;padding:.35rem;border:1px solid #8a93a6;border-radius:4px}
button{font:inherit;padding:.45rem 1.1rem;border:0;border-radius:4px;background:#2f5bd3;color:#fff;cursor:pointer}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #e2e5eb;vertical-align:top}code{font-size:.85em}
ol.timeline{list-style:none;padding:0;margin:0}ol.timeline li{border-left:3px solid #2f5bd3;padding:.2rem 0 .8rem 1rem;margin-left:.4rem}
ol.timeline li.wait{border-left-style:dashed;color:#4a5468}ol.timeline li.skip{border-left-color:#b8bfcc}ol.timeline li.terminal{border-left-color:#1b7f3b}
ol.timeline h3{font-size:1rem;margin:0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.3rem 0 0}dt{color:#4a5468}dd{margin:0}
.message{background:#fdecea;color:#8a1c13;padding:.6rem .8rem;border-radius:4px}`;

const time = (at: number | undefined) => (at === undefined ? '' : new Date(at).toISOString().replace('T', ' ').replace('Z', ' UTC'));
const nav = `<header><strong>notify admin</strong><a href="/admin/notifications">Notifications</a><a href="/admin/queues">Queues</a><a href="/admin/logout">Sign out</a></header>`;

export interface SearchForm {
  tenant?: string | undefined;
  id?: string | undefined;
  eventId?: string | undefined;
  recipientId?: string | undefined;
  status?: string | undefined;
  channel?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

export interface SearchPage {
  tenants: readonly string[];
  form: SearchForm;
  results?: { tenant: string; view: NotificationView; where: 'in flight' | 'history' }[];
  nextHref?: string | undefined;
  lanes: { lane: string; counts: Record<string, number> }[];
  message?: string | undefined;
  status?: number;
}

const input = (name: keyof SearchForm, label: string, form: SearchForm, type = 'text') =>
  `<label for="f-${name}">${label}<input id="f-${name}" name="${name}" type="${type}" value="${e(form[name] ?? '')}"></label>`;
const select = (name: keyof SearchForm, label: string, options: readonly string[], form: SearchForm, any = 'any') =>
  `<label for="f-${name}">${label}<select id="f-${name}" name="${name}">${any ? `<option value="">${any}</option>` : ''}${options
    .map((o) => `<option${form[name] === o ? ' selected' : ''}>${e(o)}</option>`)
    .join('')}</select></label>`;

function laneTable(lanes: SearchPage['lanes']): string {
  const states = ['waiting', 'active', 'delayed', 'failed'];
  const rows = lanes.map(({ lane, counts }) => `<tr><th scope="row">${e(lane)}</th>${states.map((s) => `<td>${counts[s] ?? 0}</td>`).join('')}</tr>`).join('');
  return `<section aria-labelledby="lanes"><h2 id="lanes">Lanes now</h2><table><caption>Jobs per lane and state, as bull-board counts them</caption><thead><tr><th scope="col">lane</th>${states
    .map((s) => `<th scope="col">${s}</th>`)
    .join('')}</tr></thead><tbody>${rows}</tbody></table><p><a href="/admin/queues">Open the queue board</a></p></section>`;
}

/** `/admin/notifications`: the search form, its results with paging, and the lanes' live counts. */
export function searchPage(res: Response, page: SearchPage): void {
  const { form } = page;
  const results = page.results;
  const table =
    results === undefined
      ? ''
      : results.length === 0
        ? '<p role="status">No notification matches.</p>'
        : `<table><thead><tr><th scope="col">notification</th><th scope="col">tenant</th><th scope="col">event</th><th scope="col">recipient</th><th scope="col">status</th><th scope="col">channels tried</th><th scope="col">accepted</th><th scope="col">from</th></tr></thead><tbody>${results
            .map(
              ({ tenant, view, where }) =>
                `<tr><td><a href="/admin/notifications/${e(view.id)}?tenant=${encodeURIComponent(tenant)}"><code>${e(view.id)}</code></a></td><td>${e(tenant)}</td><td>${e(view.eventId)}</td><td>${e(view.recipientId)}</td><td>${e(view.status)}</td><td>${e(view.attempts.map((a) => a.channel).join(' → '))}</td><td>${time(view.acceptedAt)}</td><td>${where}</td></tr>`,
            )
            .join('')}</tbody></table>`;
  const message = page.message ? `<p class="message" role="alert">${e(page.message)}</p>` : '';
  const next = page.nextHref ? `<p><a href="${e(page.nextHref)}" rel="next">Older results</a></p>` : '';
  sendPage(
    res,
    page.status ?? 200,
    'Notifications · notify admin',
    STYLE,
    `${nav}<main><h1>Notifications</h1><section aria-labelledby="search"><h2 id="search">Search</h2>
<form method="get" action="/admin/notifications" role="search">${select('tenant', 'Tenant', page.tenants, form, page.tenants.length > 1 ? 'choose' : '')}
${input('id', 'Notification id', form)}${input('eventId', 'Event id', form)}${input('recipientId', 'Recipient id', form)}
${select('status', 'Final status', TERMINAL_STATUSES, form)}${select('channel', 'Channel tried', CHANNELS, form)}
${input('since', 'Accepted since', form)}${input('until', 'Accepted before', form)}<button type="submit">Search</button></form>
<p>Finished notifications come from the history; one in flight is found by its id, or by event id and recipient id together.</p></section>
${message}${results === undefined ? '' : `<section aria-labelledby="results"><h2 id="results">Results</h2>${table}${next}</section>`}${laneTable(page.lanes)}</main>`,
  );
}

/** `/admin/notifications/:id`: the notification's timeline, oldest first. */
export function timelinePage(res: Response, tenant: string, view: NotificationView, timeline: readonly TimelineEntry[]): void {
  const items = timeline
    .map(
      (entry) =>
        `<li class="${entry.kind}"><h3>${e(entry.title)}</h3><time datetime="${new Date(entry.at).toISOString()}">${time(entry.at)}</time>${
          entry.facts.length > 0 ? `<dl>${entry.facts.map(([label, value]) => `<dt>${e(label)}</dt><dd>${e(value)}</dd>`).join('')}</dl>` : ''
        }</li>`,
    )
    .join('');
  sendPage(
    res,
    200,
    `Timeline ${view.id} · notify admin`,
    STYLE,
    `${nav}<main><h1>Notification <code>${e(view.id)}</code></h1><section aria-labelledby="summary"><h2 id="summary">Summary</h2><dl>
<dt>tenant</dt><dd>${e(tenant)}</dd><dt>event id</dt><dd>${e(view.eventId)}</dd><dt>recipient id</dt><dd>${e(view.recipientId)}</dd>
<dt>status</dt><dd>${e(view.status)}</dd><dt>priority</dt><dd>${e(view.priority)}</dd></dl></section>
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2><ol class="timeline">${items}</ol></section></main>`,
  );
}
