// The dashboard's shell, <pinion-admin>: login or the not-an-admin notice, else the tabs and the live refresh of
// the tab shown. Tabs are addressed by the URL's hash (#backends, #requests, #queues, #funnel, #explain, #reach), so
// a view can be linked and reloaded. A user without the admin role sees the notice and the reach of their own pins.

import { session } from './api.js';
import { alertBox, h } from './dom.js';
import { Poller } from './poller.js';
import './views/login-view.js';
import './views/backends-view.js';
import './views/requests-view.js';
import './views/queues-view.js';
import './views/funnel-view.js';
import './views/explain-view.js';
import './views/reach-view.js';

const REFRESH_MS = 3000;

const TABS = [
  { id: 'backends', label: 'Backends', element: 'pinion-backends' },
  { id: 'requests', label: 'Requests', element: 'pinion-requests' },
  { id: 'queues', label: 'Queues', element: 'pinion-queues' },
  { id: 'funnel', label: 'Feed funnel', element: 'pinion-funnel' },
  { id: 'explain', label: 'Explain', element: 'pinion-explain' },
  { id: 'reach', label: 'Pin reach', element: 'pinion-reach' },
];

class PinionAdmin extends HTMLElement {
  #poller = new Poller(() => this.#refresh(), REFRESH_MS);
  #views = new Map();
  #main = h('main', { class: 'content' });
  #banner = alertBox('error-banner');
  #status = h('span', { class: 'status', dataset: { testid: 'refresh-status' } });

  connectedCallback() {
    window.addEventListener('hashchange', () => this.#show());
    window.addEventListener('pinion:unauthorized', () => this.#logout('Your session has expired; log in again.'));
    window.addEventListener('pinion:forbidden', () => this.#render());
    this.addEventListener('pinion:login', () => this.#render());
    this.addEventListener('pinion:refresh', () => this.#poller.now());
    this.#render();
  }

  /** Login, the not-an-admin notice, or the tabs; decided by the session. */
  #render() {
    this.#poller.stop();
    this.#views.clear();
    if (!session.token) {
      this.replaceChildren(this.#header(false), h('main', { class: 'content narrow' }, h('pinion-login')));
    } else if (!session.isAdmin()) {
      this.replaceChildren(this.#header(false),
        h('main', { class: 'content narrow' }, this.#notAdmin(), h('pinion-reach')));
    } else {
      this.replaceChildren(this.#header(true), this.#banner, this.#main);
      this.#show();
    }
  }

  #header(withTabs) {
    const user = session.token
      ? h('div', { class: 'user' },
        withTabs ? this.#status : null,
        h('span', { dataset: { testid: 'username' } }, session.username),
        h('button', { type: 'button', class: 'secondary', dataset: { testid: 'logout' }, onclick: () => this.#logout() },
          'Log out'))
      : null;
    const tabs = withTabs
      ? h('nav', { class: 'tabs' }, TABS.map((tab) =>
        h('a', { href: `#${tab.id}`, dataset: { testid: `tab-${tab.id}`, tab: tab.id } }, tab.label)))
      : null;
    return h('header', { class: 'topbar' }, h('a', { class: 'brand', href: '#' }, 'Pinion ', h('span', {}, 'admin')),
      tabs, user);
  }

  #notAdmin() {
    return h('section', { class: 'card notice', dataset: { testid: 'not-admin' } },
      h('h2', {}, 'This account is not an admin'),
      h('p', {}, `${session.username} is logged in, but the dashboard's data is for the admin role only.`),
      h('p', { class: 'muted' }, 'An admin grants it with ', h('code', {}, 'PUT /v1/admin/users/{id}/roles/admin'),
        '; the first admin is made on the machine with ', h('code', {}, 'bin/admin grant <username> admin'), '.'));
  }

  /** Shows the tab the hash names (Backends by default) and refreshes it at once. */
  #show() {
    if (!this.#main.isConnected) return;
    const [id, ...rest] = location.hash.slice(1).split('/');
    const tab = TABS.find((candidate) => candidate.id === id) ?? TABS[0];
    let view = this.#views.get(tab.id);
    if (!view) {
      view = document.createElement(tab.element);
      this.#views.set(tab.id, view);
    }
    view.route?.(rest.map(decodeURIComponent));
    for (const link of this.querySelectorAll('nav.tabs a')) {
      link.classList.toggle('active', link.dataset.tab === tab.id);
    }
    if (this.#main.firstElementChild !== view) {
      this.#banner.clear();
      this.#main.replaceChildren(view);
    }
    this.#poller.start();
  }

  async #refresh() {
    const view = this.#main.firstElementChild;
    if (!view?.refresh || !this.#main.isConnected) {
      this.#status.textContent = '';
      return;
    }
    try {
      await view.refresh();
      this.#banner.clear();
      this.#status.textContent = `live · updated ${new Date().toLocaleTimeString('en-GB', { hour12: false })}`;
      this.#status.classList.remove('stale');
    } catch (error) {
      if (error.status === 401 || error.status === 403) return;
      this.#banner.show(error, 'Refresh failed: ');
      this.#status.textContent = 'refresh failed; retrying';
      this.#status.classList.add('stale');
    }
  }

  #logout(message) {
    this.#poller.stop();
    session.clear();
    this.#render();
    if (message) this.querySelector('pinion-login')?.notify(message);
  }
}

customElements.define('pinion-admin', PinionAdmin);
