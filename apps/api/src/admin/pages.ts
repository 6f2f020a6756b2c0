import type { Response } from 'express';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Own pages only: no script at all, styles inline, forms post back here, never framed. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const STYLE = `body{font:16px system-ui,sans-serif;background:#f4f5f7;color:#1d2433;display:flex;justify-content:center;padding-top:12vh;margin:0}
main{background:#fff;border-radius:8px;box-shadow:0 2px 12px #0002;padding:2rem 2.5rem;width:22rem}
h1{font-size:1.3rem;margin:0 0 1.2rem}label{display:block;margin-bottom:.4rem}
input[type=password]{width:100%;box-sizing:border-box;padding:.55rem;font:inherit;border:1px solid #b8bfcc;border-radius:4px}
button{margin-top:1rem;padding:.55rem 1.2rem;font:inherit;border:0;border-radius:4px;background:#2f5bd3;color:#fff;cursor:pointer}
.message{background:#fdecea;color:#8a1c13;padding:.6rem .8rem;border-radius:4px;margin-bottom:1rem}`;

/** An HTML page of the console under its CSP: `style` inline, no script. */
export function sendPage(res: Response, status: number, title: string, style: string, body: string): void {
  res
    .status(status)
    .set({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-store', 'referrer-policy': 'same-origin' })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><style>${style}</style></head><body>${body}</body></html>`,
    );
}

const page = (res: Response, status: number, title: string, body: string) => sendPage(res, status, title, STYLE, `<main>${body}</main>`);

/** The sign-in form; `csrf` also sits in the form's cookie (double submit). */
export function signInPage(res: Response, options: { csrf: string; status?: number; message?: string }): void {
  const message = options.message ? `<p class="message" role="alert">${escapeHtml(options.message)}</p>` : '';
  page(
    res,
    options.status ?? 200,
    'Sign in · notify admin',
    `<h1>notify admin: sign in</h1>${message}
<form method="post" action="/admin/login">
<input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
<label for="key">Admin API key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** Sign-out is a POST with the session's CSRF token: a link or an image elsewhere cannot sign anyone out. */
export function signOutPage(res: Response, csrf: string): void {
  page(
    res,
    200,
    'Sign out · notify admin',
    `<h1>notify admin</h1>
<form method="post" action="/admin/logout">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><a href="/admin/queues">Back to the queues</a></p>
<button type="submit">Sign out</button>
</form>`,
  );
}

/** A refusal the browser shows as a page (the JSON error shape is for scripts). */
export function refusalPage(res: Response, status: number, message: string): void {
  page(res, status, 'notify admin', `<h1>notify admin</h1><p class="message" role="alert">${escapeHtml(message)}</p><p><a href="/admin/login">Sign in</a></p>`);
}
