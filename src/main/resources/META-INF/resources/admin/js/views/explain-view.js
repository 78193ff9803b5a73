// <pinion-explain>: why a pin did or did not reach a user's home feed, stage by stage
// (GET /v1/admin/feed/explain?user=&pin=).

import { api } from '../api.js';
import { alertBox, badge, h, table } from '../dom.js';

const VERDICTS = { shown: 'ok', pending: 'warn', dropped: 'bad', not_delivered: 'bad' };
const STATES = { ok: 'ok', stop: 'bad', info: 'info', unavailable: 'warn' };

class ExplainView extends HTMLElement {
  #error = alertBox('explain-error');
  #result = h('div', { dataset: { testid: 'explain-result' } });

  connectedCallback() {
    if (this.childElementCount) return;
    const user = h('input', { name: 'user', required: true, inputMode: 'numeric', placeholder: 'user id', dataset: { testid: 'explain-user' } });
    const pin = h('input', { name: 'pin', required: true, inputMode: 'numeric', placeholder: 'pin id', dataset: { testid: 'explain-pin' } });
    const submit = h('button', { type: 'submit', dataset: { testid: 'explain-submit' } }, 'Explain');
    const form = h('form', { class: 'inline-form', dataset: { testid: 'explain-form' } },
      h('label', {}, 'User', user), h('label', {}, 'Pin', pin), submit);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      submit.disabled = true;
      this.#error.clear();
      try {
        this.#render(await api.explain(user.value.trim(), pin.value.trim()));
      } catch (error) {
        this.#result.replaceChildren();
        this.#error.show(error);
      } finally {
        submit.disabled = false;
      }
    });
    this.replaceChildren(h('section', { class: 'card' }, h('h2', {}, 'Explain a pin in a home feed'),
      h('p', { class: 'muted' }, 'Follows one pin through the stages of one user\'s home feed and says where it stopped.'),
      form, this.#error, this.#result));
  }

  #render(explained) {
    this.#result.replaceChildren(
      h('div', { class: 'verdict' },
        h('span', { dataset: { testid: 'explain-verdict', verdict: explained.verdict } },
          badge(explained.verdict.replaceAll('_', ' '), VERDICTS[explained.verdict] ?? 'info')),
        explained.stoppedAt ? h('span', { class: 'muted' }, ` stopped at ${explained.stoppedAt}`) : null,
        h('p', { dataset: { testid: 'explain-summary' } }, explained.summary)),
      table('explain-stages', ['Stage', 'Source', 'State', 'Summary', 'Evidence'],
        explained.stages.map((stage) => h('tr', { dataset: { testid: 'explain-stage', stage: stage.stage } },
          h('td', { class: 'strong' }, stage.stage),
          h('td', {}, stage.source ?? '–'),
          h('td', {}, badge(stage.state, STATES[stage.state] ?? 'info')),
          h('td', {}, stage.summary ?? ''),
          h('td', {}, evidence(stage.evidence))))));
  }
}

/** Evidence as a list of facts; nested values as compact JSON. */
function evidence(facts) {
  if (!facts || !Object.keys(facts).length) return '';
  return h('dl', { class: 'evidence' }, Object.entries(facts).map(([key, value]) => [
    h('dt', {}, key),
    h('dd', {}, value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)),
  ]));
}

customElements.define('pinion-explain', ExplainView);
