// The OAuth redirect page's script: hand this page's address (code and state) to the Patchbay
// page that opened it, on the same origin only, then close. The opener answers on the same
// channel; without an answer the user is told to paste the address instead.
(() => {
  const status = document.getElementById("status");
  const href = location.href;
  const message = { type: "patchbay-oauth-redirect", url: href };
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("patchbay-oauth") : null;
  let done = false;
  const received = (data) => {
    if (done || !data || data.type !== "patchbay-oauth-received" || data.url !== href) return;
    done = true;
    status.textContent = "Patchbay has the answer. This window closes.";
    // The code leaves the address bar and the history.
    history.replaceState(null, "", location.pathname);
    setTimeout(() => window.close(), 300);
  };
  channel?.addEventListener("message", (event) => received(event.data));
  window.addEventListener("message", (event) => {
    if (event.origin === location.origin) received(event.data);
  });
  try {
    window.opener?.postMessage(message, location.origin);
  } catch {
    // An opener on another origin cannot be told; the channel still reaches Patchbay's pages.
  }
  channel?.postMessage(message);
  setTimeout(() => {
    if (!done) {
      status.textContent =
        "Patchbay did not pick the answer up. Copy this page's address from the address bar and paste it into Patchbay's \"Paste the redirect URL\" box.";
    }
  }, 3000);
})();
