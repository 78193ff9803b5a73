// <pinion-login>: username and password → POST /v1/sessions; the token goes to the session and the shell is told.

import { api, session } from '../api.js';
import { alertBox, h } from '../dom.js';

class LoginView extends HTMLElement {
  #error = alertBox('login-error');
  #notice = h('p', { class: 'muted', hidden: true, dataset: { testid: 'login-notice' } });

  connectedCallback() {
    const username = h('input', { name: 'username', autocomplete: 'username', required: true, dataset: { testid: 'login-username' } });
    const password = h('input', {
      name: 'password', type: 'password', autocomplete: 'current-password', required: true,
      dataset: { testid: 'login-password' },
    });
    const submit = h('button', { type: 'submit', dataset: { testid: 'login-submit' } }, 'Log in');
    const form = h('form', { class: 'card form', dataset: { testid: 'login-form' } },
      h('h2', {}, 'Log in'),
      h('p', { class: 'muted' }, 'The dashboard is for accounts with the admin role.'),
      this.#notice,
      h('label', {}, 'Username', username),
      h('label', {}, 'Password', password),
      this.#error,
      h('div', { class: 'actions' }, submit));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      submit.disabled = true;
      this.#error.clear();
      try {
        const name = username.value.trim();
        const created = await api.login(name, password.value);
        session.save(created.token, name);
        this.dispatchEvent(new Event('pinion:login', { bubbles: true }));
      } catch (error) {
        this.#error.show(error);
        submit.disabled = false;
      }
    });
    this.replaceChildren(form);
    username.focus();
  }

  /** A line above the form, e.g. why the session ended. */
  notify(message) {
    this.#notice.textContent = message;
    this.#notice.hidden = false;
  }
}

customElements.define('pinion-login', LoginView);
