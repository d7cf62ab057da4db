// One reply drawn on its own, as the playground draws it (blockkit.js): the asker's message,
// then the bot's reply (in a thread when threaded, marked when private), or a Home tab. Used by
// tools/previews.py for the pictures in docs/: the same renderer as the playground's page.
"use strict";

function drawScene(payload) {
  const { el } = BK;
  const ctx = { act: () => {}, menu: () => {} };
  const pane = el("div", "messages scene");
  if (payload.type === "home") {
    const home = el("div", "home");
    home.appendChild(BK.blocks(payload.blocks, ctx));
    pane.appendChild(home);
    return pane;
  }
  if (payload._question) {
    const you = el("div", "message you");
    const head = el("div", "message-head");
    head.appendChild(el("span", "avatar", "Y"));
    head.appendChild(el("b", "author", "you"));
    you.appendChild(head);
    you.appendChild(BK.mrkdwn(String(payload._question).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")));
    pane.appendChild(you);
  }
  const bot = el("div", "message bot" + (payload._ephemeral ? " ephemeral" : "") + (payload._thread ? " in-thread" : ""));
  const head = el("div", "message-head");
  head.appendChild(el("span", "avatar", "M"));
  head.appendChild(el("b", "author", "mincards"));
  head.appendChild(el("span", "app-tag", "APP"));
  if (payload._ephemeral) head.appendChild(el("span", "muted", "Only visible to you"));
  bot.appendChild(head);
  if (payload._unfurl) {
    const card = el("div", "unfurl");
    card.appendChild(el("div", "unfurl-url", payload._unfurl));
    card.appendChild(BK.blocks(payload.blocks, ctx));
    bot.appendChild(card);
  } else bot.appendChild(BK.blocks(payload.blocks, ctx));
  pane.appendChild(bot);
  return pane;
}

// Drawn as soon as this script runs (the payload and the scene's box come before it), so that
// anything measuring the page after it sees the drawn reply.
(() => {
  const source = document.getElementById("payload");
  if (source) document.getElementById("scene").appendChild(drawScene(JSON.parse(source.textContent)));
})();
