// Moving between pages and telling the player what happened; the router in
// main.js listens for the navigation event.

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event('hexpost:navigate'));
}

export function showStatus(message, kind = 'info') {
  const status = document.getElementById('status');
  status.className = `status ${kind}`;
  status.textContent = message;
  if (message && kind === 'info') {
    setTimeout(() => {
      if (status.textContent === message) status.textContent = '';
    }, 5000);
  }
}
