// The playground's Slack client: a channel, a DM (with assistant threads), the Home tab, slash
// commands, shortcuts and modals. What a person does goes to /api/... (the playground signs it
// as Slack would); what the bot sends Slack arrives through /api/feed and is drawn in place.
"use strict";

const { el } = BK;
const S = {
  info: null, where: "channel", after: 0, messages: [], home: null, modals: [], thread: null,
  sent: [], assistant: {}, seq: 0, you: "you",
};
const $ = id => document.getElementById(id);

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(path + ": " + res.status);
  return res.json();
}

function channelOf(where) { return where === "dm" ? S.info.dm : S.info.channel; }
function responseName(url) { return String(url || "").split("/").pop(); }
function newResponseUrl() { return "http://playground/response/act-" + (++S.seq); }

// --- messages ---------------------------------------------------------------------------------

function add(msg) { S.messages.push(msg); return msg; }
function find(channel, ts) { return S.messages.find(m => m.channel === channel && m.ts === ts); }

function timing(call) {
  const last = S.sent[S.sent.length - 1];
  const parts = [];
  if (last) parts.push("ack " + last.ack_ms + " ms");
  if (call.reply_ms !== null && call.reply_ms !== undefined) parts.push("reply " + call.reply_ms + " ms");
  return parts.join(" · ");
}

function apply(call) {
  const p = call.params || {};
  const r = call.result || {};
  switch (call.method) {
    case "playground.said":
      add({ channel: p.channel, ts: p.ts, thread_ts: p.thread_ts, text: p.text, unfurl_id: p.unfurl_id });
      break;
    case "chat.postMessage":
      add({ bot: true, channel: p.channel, ts: r.ts, thread_ts: p.thread_ts, text: p.text, blocks: p.blocks, json: p, timing: timing(call) });
      break;
    case "chat.postEphemeral":
      add({ bot: true, ephemeral: true, channel: p.channel, ts: "eph" + call.index, thread_ts: p.thread_ts, text: p.text, blocks: p.blocks, json: p, timing: timing(call), response: "eph" + call.index });
      break;
    case "chat.update": {
      const m = find(p.channel, p.ts);
      if (m) Object.assign(m, { text: p.text, blocks: p.blocks, json: p, timing: timing(call), updated: true });
      break;
    }
    case "chat.unfurl": {
      const m = p.unfurl_id ? S.messages.find(x => x.unfurl_id === p.unfurl_id) : find(p.channel, p.ts);
      if (m) m.unfurls = p.unfurls;
      break;
    }
    case "response": {
      const name = responseName(p._url);
      const m = S.messages.find(x => x.response === name);
      if (p.delete_original && m) { S.messages.splice(S.messages.indexOf(m), 1); break; }
      if (p.replace_original && m) { Object.assign(m, { text: p.text, blocks: p.blocks, json: p, timing: timing(call), updated: true }); break; }
      const where = (S.pending[name] || {}).channel || S.info.channel;
      add({ bot: true, ephemeral: p.response_type !== "in_channel", channel: where, ts: "resp" + call.index, text: p.text, blocks: p.blocks, json: p, timing: timing(call), response: name });
      break;
    }
    case "views.publish": S.home = p.view; break;
    case "views.open": case "views.push":
      if (!S.synced) break;  // a modal is of its moment: a reloaded page does not reopen it
      S.modals.push({ id: (r.view && r.view.id) || "V" + call.index, view: p.view, json: p }); break;
    case "views.update": {
      const m = S.modals.find(x => x.id === p.view_id) || S.modals[S.modals.length - 1];
      if (m) Object.assign(m, { view: p.view, json: p });
      break;
    }
    case "assistant.threads.setSuggestedPrompts":
      // The agent view sets a DM's prompts with no thread: above the DM's composer.
      if (!p.thread_ts) { S.dmPrompts = { prompts: p.prompts, title: p.title }; break; }
      S.assistant[p.thread_ts] = { ...(S.assistant[p.thread_ts] || {}), prompts: p.prompts, promptsTitle: p.title }; break;
    case "agents.sessions.rename": S.assistant[p.thread_ts] = { ...(S.assistant[p.thread_ts] || {}), title: p.title }; break;
    case "assistant.threads.setTitle": S.assistant[p.thread_ts] = { ...(S.assistant[p.thread_ts] || {}), title: p.title }; break;
    case "assistant.threads.setStatus": S.assistant[p.thread_ts] = { ...(S.assistant[p.thread_ts] || {}), status: p.status }; break;
  }
}

// --- interactions ----------------------------------------------------------------------------

function ctxFor(msg, view) {
  return {
    menu: openMenu,
    act: async (e, extra) => {
      const action = { type: e.type, action_id: e.action_id, block_id: extra.block_id || "b", action_ts: String(Date.now() / 1000) };
      if (extra.value !== undefined) action.value = extra.value;
      if (extra.selected_option) action.selected_option = extra.selected_option;
      if (extra.selected_options) action.selected_options = extra.selected_options;
      let payload;
      if (view) {
        payload = { type: "block_actions", container: { type: "view", view_id: view.id }, view: { ...view.view, id: view.id }, actions: [action] };
      } else {
        const url = msg.response ? "http://playground/response/" + msg.response : newResponseUrl();
        if (!msg.response) S.pending[responseName(url)] = { channel: msg.channel };
        payload = {
          type: "block_actions", actions: [action], channel: { id: msg.channel }, response_url: url,
          message: { ts: msg.ts, text: msg.text, blocks: msg.blocks },
          container: { type: msg.unfurlCard ? "message_attachment" : "message", message_ts: msg.ts, channel_id: msg.channel, is_ephemeral: !!msg.ephemeral, thread_ts: msg.thread_ts },
        };
      }
      const out = await api("/api/interact", { payload });
      S.sent.push(out.sent);
    },
  };
}

function openMenu(anchor, items) {
  const menu = $("menu");
  menu.replaceChildren();
  items.forEach(([label, run]) => {
    const b = el("button", "menu-item", label);
    b.type = "button";
    b.addEventListener("click", () => { menu.hidden = true; run(); });
    menu.appendChild(b);
  });
  const r = anchor.getBoundingClientRect();
  menu.style.left = Math.min(r.left, window.innerWidth - 260) + "px";
  menu.style.top = (r.bottom + window.scrollY) + "px";
  menu.hidden = false;
}
document.addEventListener("click", e => { if (!$("menu").contains(e.target) && !e.target.closest(".opens-menu")) $("menu").hidden = true; });

async function messageShortcut(msg) {
  const url = newResponseUrl();
  S.pending[responseName(url)] = { channel: msg.channel };
  const out = await api("/api/interact", { payload: {
    type: "message_action", callback_id: "mincards_this", channel: { id: msg.channel },
    message: { type: "message", text: msg.text, ts: msg.ts, user: msg.bot ? S.info.bot_user : S.info.user },
    message_ts: msg.ts, response_url: url } });
  S.sent.push(out.sent);
}

// --- drawing ---------------------------------------------------------------------------------

function drawMessage(msg, inThread) {
  const box = el("div", "message" + (msg.bot ? " bot" : " you") + (msg.ephemeral ? " ephemeral" : ""));
  box.dataset.ts = msg.ts || "";
  const head = el("div", "message-head");
  head.appendChild(el("span", "avatar", msg.bot ? "M" : "Y"));
  head.appendChild(el("b", "author", msg.bot ? "mincards" : "you"));
  if (msg.bot) head.appendChild(el("span", "app-tag", "APP"));
  if (msg.ephemeral) head.appendChild(el("span", "muted", "Only visible to you"));
  if (msg.updated) head.appendChild(el("span", "muted", "(edited)"));
  const more = el("button", "more opens-menu", "⋯");
  more.type = "button"; more.title = "More actions";
  more.addEventListener("click", () => openMenu(more, [["How many cards for this?", () => messageShortcut(msg)]]));
  head.appendChild(more);
  box.appendChild(head);
  if (msg.blocks) box.appendChild(BK.blocks(msg.blocks, ctxFor(msg)));
  else box.appendChild(BK.mrkdwn(msg.text || ""));
  for (const [url, card] of Object.entries(msg.unfurls || {})) {
    const u = el("div", "unfurl");
    u.appendChild(el("div", "unfurl-url", url));
    u.appendChild(BK.blocks(card.blocks, ctxFor({ ...msg, unfurlCard: true })));
    box.appendChild(u);
  }
  if (msg.bot) {
    const foot = el("div", "message-foot");
    if (msg.timing) foot.appendChild(el("span", "timing", msg.timing));
    const toggle = el("button", "json-toggle", "{ } view JSON");
    toggle.type = "button";
    const pre = el("pre", "json", JSON.stringify(msg.json, null, 2));
    pre.hidden = !$("json-all").checked;
    toggle.addEventListener("click", () => { pre.hidden = !pre.hidden; });
    foot.appendChild(toggle);
    box.appendChild(foot);
    box.appendChild(pre);
  }
  if (!inThread && msg.replies) {
    const r = el("button", "replies", msg.replies + (msg.replies === 1 ? " reply" : " replies"));
    r.type = "button";
    r.addEventListener("click", () => openThread(msg.channel, msg.ts));
    box.appendChild(r);
  }
  return box;
}

function draw() {
  const where = S.where;
  document.querySelectorAll(".nav").forEach(b => b.classList.toggle("on", b.dataset.go === where));
  $("messages").hidden = where === "home";
  $("home").hidden = where !== "home";
  $("composer").hidden = where === "home";
  $("pane-title").replaceChildren(el("span", null, where === "channel" ? "# npu-training" : where === "dm" ? "mincards" : "mincards · Home"));
  if (where === "dm") {
    const b = el("button", "bk-button small", "New assistant thread");
    b.type = "button"; b.id = "new-assistant";
    b.addEventListener("click", startAssistant);
    $("pane-title").appendChild(b);
  }
  $("hint").textContent = where === "channel" ? "Mention @mincards to ask; /mincards … answers privately; paste a Hugging Face link to see it unfurled."
    : where === "dm" ? "Ask anything here; no mention needed." : "";
  $("text").placeholder = where === "channel" ? "Message #npu-training" : "Message mincards";
  if (where === "home") {
    $("home").replaceChildren(S.home ? BK.blocks(S.home.blocks, ctxFor(null, { id: "home", view: S.home })) : el("div", "muted", "Opening the Home tab…"));
  } else {
    const channel = channelOf(where);
    const top = S.messages.filter(m => m.channel === channel && (!m.thread_ts || m.thread_ts === m.ts));
    if (where === "dm" && S.info.agent_view) {
      // The agent view: each message written here is a session, drawn as a timeline with its
      // replies under it (titled as the bot titled it); "Open session" follows up in it.
      $("messages").replaceChildren(...top.map(drawSession));
    } else {
      top.forEach(m => { m.replies = S.messages.filter(x => x.channel === channel && x.thread_ts === m.ts && x !== m).length; });
      $("messages").replaceChildren(...top.map(m => drawMessage(m)));
    }
  }
  drawPrompts(where);
  drawThread();
  drawModal();
}

function drawSession(root) {
  const box = el("div", "session");
  box.dataset.ts = root.ts || "";
  const info = S.assistant[root.ts] || {};
  const head = el("div", "session-head", info.title || "Session");
  if (info.status) head.appendChild(el("span", "muted", " · mincards " + info.status));
  const open = el("button", "bk-button small", "Open session");
  open.type = "button";
  open.addEventListener("click", () => openThread(root.channel, root.ts));
  head.appendChild(open);
  box.appendChild(head);
  box.appendChild(drawMessage(root));
  S.messages.filter(x => x.channel === root.channel && x.thread_ts === root.ts && x !== root)
    .forEach(m => box.appendChild(drawMessage(m, true)));
  return box;
}

function drawPrompts(where) {
  const bar = $("dm-prompts");
  const shown = where === "dm" && S.dmPrompts && S.dmPrompts.prompts;
  bar.hidden = !shown;
  if (!shown) return;
  const chips = S.dmPrompts.prompts.map(p => {
    const chip = el("button", "bk-button small prompt", p.title);
    chip.type = "button";
    chip.addEventListener("click", () => send(p.message, S.info.dm));
    return chip;
  });
  bar.replaceChildren(el("span", "muted", S.dmPrompts.title || ""), ...chips);
}

function drawThread() {
  const pane = $("thread");
  if (!S.thread) { pane.hidden = true; return; }
  pane.hidden = false;
  const { channel, ts } = S.thread;
  const info = S.assistant[ts] || {};
  $("thread-title").textContent = info.title || (info.assistant ? "Assistant" : "Thread");
  $("thread-status").textContent = info.status ? " · mincards " + info.status : "";
  const list = S.messages.filter(m => m.channel === channel && (m.ts === ts || m.thread_ts === ts));
  $("thread-messages").replaceChildren(...list.map(m => drawMessage(m, true)));
  const prompts = $("prompts");
  if (info.prompts && info.prompts.length) {
    prompts.hidden = false;
    prompts.replaceChildren(el("span", "muted", info.promptsTitle || "Try:"), ...info.prompts.map(p => {
      const b = el("button", "bk-button small prompt", p.title);
      b.type = "button";
      b.addEventListener("click", () => send(p.message, channel, ts));
      return b;
    }));
  } else prompts.hidden = true;
}

function drawModal() {
  const layer = $("modal-layer");
  const top = S.modals[S.modals.length - 1];
  if (!top) { layer.hidden = true; layer.replaceChildren(); return; }
  layer.hidden = false;
  const v = top.view || {};
  const box = el("div", "modal");
  box.setAttribute("role", "dialog");
  box.appendChild(el("div", "modal-title", (v.title && v.title.text) || ""));
  const form = [];
  const ctx = { ...ctxFor(null, top), form: v.blocks && v.blocks.some(b => b.type === "input") ? form : null };
  box.appendChild(BK.blocks(v.blocks, ctx));
  const buttons = el("div", "modal-buttons");
  const close = el("button", "bk-button", (v.close && v.close.text) || "Close");
  close.type = "button";
  close.addEventListener("click", () => { S.modals.pop(); draw(); });
  buttons.appendChild(close);
  if (v.submit) {
    const submit = el("button", "bk-button primary", v.submit.text || "Submit");
    submit.type = "button"; submit.id = "modal-submit";
    submit.addEventListener("click", () => submitModal(top, form, box));
    buttons.appendChild(submit);
  }
  box.appendChild(buttons);
  layer.replaceChildren(box);
}

async function submitModal(top, form, box) {
  const values = {};
  form.forEach(([blockId, actionId, read]) => { (values[blockId] = values[blockId] || {})[actionId] = read(); });
  const view = { ...top.view, id: top.id, state: { values } };
  const out = await api("/api/interact", { payload: { type: "view_submission", view } });
  S.sent.push(out.sent);
  const answer = out.body || {};
  if (answer.response_action === "update") { top.view = answer.view; top.json = answer; }
  else if (answer.response_action === "errors") {
    box.querySelectorAll(".input-error").forEach(e => { e.textContent = ""; });
    for (const [blockId, message] of Object.entries(answer.errors || {})) {
      const b = box.querySelector('[data-block-id="' + CSS.escape(blockId) + '"] .input-error');
      if (b) b.textContent = message;
    }
    return;
  } else if (answer.response_action === "push") S.modals.push({ id: "V" + Date.now(), view: answer.view });
  else S.modals.pop();
  draw();
}

// --- asking ----------------------------------------------------------------------------------

async function send(text, channel, threadTs) {
  text = text.trim();
  if (!text) return;
  if (text.startsWith("/mincards") && !threadTs) {
    const out = await api("/api/command", { text: text.replace(/^\/mincards\s*/, "") });
    S.sent.push(out.sent);
    S.pending[responseName(out.response_url)] = { channel };
    return;
  }
  const out = await api("/api/message", { text, channel, thread_ts: threadTs || undefined });
  (out.sent || []).forEach(s => S.sent.push(s));
}

function openThread(channel, ts) { S.thread = { channel, ts }; draw(); }

async function startAssistant() {
  const out = await api("/api/assistant", {});
  S.sent.push(out.sent);
  S.assistant[out.thread_ts] = { ...(S.assistant[out.thread_ts] || {}), assistant: true };
  add({ channel: S.info.dm, ts: out.thread_ts, text: "New assistant thread", system: true });
  openThread(S.info.dm, out.thread_ts);
}

async function poll() {
  try {
    const data = await api("/api/feed?after=" + S.after);
    S.after = data.next;
    S.sent = data.sent.length ? data.sent : S.sent;
    if (data.calls.length) { data.calls.forEach(apply); draw(); }
    S.synced = true;
  } catch (e) {
    $("hint").textContent = "The playground stopped (" + e.message + ")";
    return;
  }
  setTimeout(poll, 250);
}

async function go(where) {
  S.where = where;
  if (where === "home") await api("/api/home", {}).then(o => S.sent.push(o.sent));
  // The agent view: opening the DM (the Messages tab) is an app_home_opened of its own.
  if (where === "dm" && S.info.agent_view && !S.dmOpened) {
    S.dmOpened = true;
    await api("/api/messages-tab", {}).then(o => S.sent.push(o.sent));
  }
  draw();
}

async function main() {
  S.info = await api("/api/info");
  BK.names[S.info.bot_user] = "mincards";
  BK.names[S.info.user] = "you";
  S.pending = {};
  document.querySelectorAll(".nav").forEach(b => b.addEventListener("click", () => go(b.dataset.go)));
  $("composer").addEventListener("submit", e => { e.preventDefault(); const t = $("text").value; $("text").value = ""; send(t, channelOf(S.where)); });
  $("thread-composer").addEventListener("submit", e => { e.preventDefault(); const t = $("thread-text").value; $("thread-text").value = ""; send(t, S.thread.channel, S.thread.ts); });
  $("close-thread").addEventListener("click", () => { S.thread = null; draw(); });
  $("phone").addEventListener("change", () => document.body.classList.toggle("phone", $("phone").checked));
  $("json-all").addEventListener("change", draw);
  $("locale").addEventListener("change", () => api("/api/locale", { locale: $("locale").value }));
  $("shortcut").classList.add("opens-menu");
  $("shortcut").addEventListener("click", () => openMenu($("shortcut"), [["Ask mincards", async () => {
    const out = await api("/api/interact", { payload: { type: "shortcut", callback_id: "mincards_ask" } });
    S.sent.push(out.sent);
  }]]));
  draw();
  poll();
}

main();
