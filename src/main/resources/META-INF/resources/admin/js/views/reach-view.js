// <pinion-reach>: a pin's reach for its author (GET /v1/me/pins/{id}/reach): followers it was routed to, feeds it
// entered, times considered and shown over the last seven days. Any logged-in user may ask about their own pins; the
// API answers 403 for anyone else's.

import { api } from '../api.js';
import { alertBox, count, h } from '../dom.js';
import { sparkline } from '../sparkline.js';

const FACTS = [
  ['followers', 'Followers it was routed to'],
  ['inactive', 'of them skipped: away for a long time'],
  ['delivered', 'Feeds it entered'],
  ['considered', 'Times a feed considered it'],
  ['shown', 'Times shown'],
];

class ReachView extends HTMLElement {
  #error = alertBox('reach-error');
  #result = h('div', { dataset: { testid: 'reach-result' } });

  connectedCallback() {
    if (this.childElementCount) return;
    const pin = h('input', { name: 'pin', required: true, inputMode: 'numeric', placeholder: 'pin id', dataset: { testid: 'reach-pin' } });
    const submit = h('button', { type: 'submit', dataset: { testid: 'reach-submit' } }, 'Show reach');
    const form = h('form', { class: 'inline-form', dataset: { testid: 'reach-form' } }, h('label', {}, 'Pin', pin), submit);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      submit.disabled = true;
      this.#error.clear();
      try {
        this.#render(await api.reach(pin.value.trim()));
      } catch (error) {
        this.#result.replaceChildren();
        this.#error.show(error);
      } finally {
        submit.disabled = false;
      }
    });
    this.replaceChildren(h('section', { class: 'card', dataset: { testid: 'reach' } }, h('h2', {}, 'Your pin\'s reach'),
      h('p', { class: 'muted' }, 'How far one of your pins went in the last seven days: only its author sees this.'),
      form, this.#error, this.#result));
  }

  #render(reach) {
    this.#result.replaceChildren(
      h('dl', { class: 'facts' }, FACTS.map(([key, label]) => [
        h('dt', {}, label),
        h('dd', { dataset: { testid: `reach-${key}` } }, count(reach[key])),
      ])),
      h('p', { class: 'muted' }, 'Shown per hour: '),
      sparkline(reach.shownOverTime, reach.from, reach.to, 'reach-shown-over-time'));
  }
}

customElements.define('pinion-reach', ReachView);
