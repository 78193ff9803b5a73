// <pinion-funnel>: the feed funnel of this instance (overview): a chart of the stages by source and the breakdown
// of every counter by source and reason, and the funnel of one pin, author or board (<pinion-entity-funnel>).

import { api } from '../api.js';
import { count, h, num, rate, table } from '../dom.js';
import { funnelChart } from '../funnel-chart.js';
import './entity-funnel-view.js';

class FunnelView extends HTMLElement {
  #perSecond = false;
  #overview = null;
  #chart = h('div', { class: 'chart' });
  #table = h('div');
  #entity = h('pinion-entity-funnel');

  connectedCallback() {
    if (this.childElementCount) return;
    const mode = (label, perSecond, testid) => h('label', { class: 'toggle' },
      h('input', {
        type: 'radio', name: 'funnel-mode', checked: perSecond === this.#perSecond, dataset: { testid },
        onchange: () => { this.#perSecond = perSecond; this.#render(); },
      }), label);
    this.replaceChildren(
      h('section', { class: 'card' },
        h('div', { class: 'card-head' }, h('h2', {}, 'Feed funnel'),
          mode('Since start', false, 'funnel-mode-count'), mode('Per second', true, 'funnel-mode-rate')),
        h('p', { class: 'muted' }, 'Pins and pool rows through the home feed\'s stages on this instance, by source ',
          '(', h('code', {}, 'pinion_feed_funnel_total'), '; hover a bar for its reasons).'),
        this.#chart),
      h('section', { class: 'card' }, h('h2', {}, 'By source and reason'), this.#table),
      this.#entity);
  }

  async refresh() {
    this.#overview = await api.overview();
    this.#render();
    await this.#entity.refresh?.();
  }

  #render() {
    if (!this.#overview) return;
    const funnel = this.#overview.funnel;
    this.#chart.replaceChildren(funnel.length
      ? funnelChart(funnel, this.#perSecond)
      : h('p', { class: 'empty', dataset: { testid: 'funnel-empty' } },
        'No funnel counters on this instance yet: they appear once the feed has handled a pin.'));
    // every series is registered at 0 when the service starts: the table lists those that have counted
    const counted = funnel.filter((counter) => counter.count > 0);
    const atZero = funnel.length - counted.length;
    this.#table.replaceChildren(
      table('funnel-table', ['Stage', 'Source', 'Reason', ['Count', 'num'], ['Per second', 'num']],
        counted.map((counter) => h('tr', { dataset: { testid: 'funnel-row' } },
          h('td', { class: 'strong' }, counter.stage),
          h('td', {}, counter.source ?? '–'),
          h('td', {}, counter.reason ?? '–'),
          num(count(counter.count)),
          num(rate(counter.ratePerSec)))),
        'nothing counted yet'),
      atZero ? h('p', { class: 'muted' }, `${atZero} series still at 0 are not listed.`) : null);
  }
}

customElements.define('pinion-funnel', FunnelView);
