// Block Kit drawn roughly as Slack draws it, as DOM nodes built from text nodes only: nothing the
// bot or a person wrote is ever parsed as HTML. One renderer for the playground and for the
// pictures in docs/ (tools/previews.py draws through render.html). Unknown block or element
// types are drawn as their JSON with a warning, never dropped.
"use strict";

const BK = (() => {
  const names = {};  // user ids the page knows by name (the bot, you)
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // Slack escapes &, < and > in text; undone only for display, as text.
  function unescapeSlack(s) {
    return String(s).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }

  // Inline mrkdwn: <link|label>, <@U>, <#C|name>, <!here>, `code`, *bold*, _italic_, ~strike~.
  const INLINE = /<([^<>]+)>|`([^`]+)`|\*([^*\n]+)\*|(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?:;])|~([^~\n]+)~/g;

  function inline(parent, text) {
    let at = 0;
    let m;
    // A regex of its own per call: the bold and italic runs recurse.
    const pattern = new RegExp(INLINE.source, "g");
    while ((m = pattern.exec(text)) !== null) {
      const start = m.index + (m[4] ? m[4].length : 0);
      if (m.index > at || m[4]) parent.appendChild(document.createTextNode(unescapeSlack(text.slice(at, start))));
      if (m[1] !== undefined) {
        const inner = m[1];
        const [target, label] = inner.split("|", 2);
        if (target.startsWith("@")) parent.appendChild(el("span", "mention", "@" + (label || names[target.slice(1)] || target.slice(1))));
        else if (target.startsWith("#")) parent.appendChild(el("span", "mention", "#" + (label || target.slice(1))));
        else if (target.startsWith("!")) parent.appendChild(el("span", "mention", "@" + (label || target.slice(1).split("^")[0])));
        else {
          const a = el("a", null, unescapeSlack(label || target));
          if (/^https?:\/\//.test(target)) { a.href = unescapeSlack(target); a.target = "_blank"; a.rel = "noopener"; }
          parent.appendChild(a);
        }
      } else if (m[2] !== undefined) parent.appendChild(el("code", null, unescapeSlack(m[2])));
      else if (m[3] !== undefined) { const b = el("b"); inline(b, m[3]); parent.appendChild(b); }
      else if (m[5] !== undefined) { const i = el("i"); inline(i, m[5]); parent.appendChild(i); }
      else if (m[6] !== undefined) { const s = el("s"); inline(s, m[6]); parent.appendChild(s); }
      at = pattern.lastIndex;
    }
    if (at < text.length) parent.appendChild(document.createTextNode(unescapeSlack(text.slice(at))));
  }

  function mrkdwn(text) {
    const box = el("div", "mrkdwn");
    const parts = String(text).split("```");
    parts.forEach((part, i) => {
      if (i % 2 === 1) { box.appendChild(el("pre", null, unescapeSlack(part.replace(/^\n/, "")))); return; }
      const lines = part.split("\n");
      lines.forEach((line, j) => {
        if (line.startsWith("&gt; ") || line.startsWith("> ")) {
          const q = el("blockquote");
          inline(q, line.replace(/^(&gt;|>) /, ""));
          box.appendChild(q);
          return;
        }
        inline(box, line);
        if (j < lines.length - 1) box.appendChild(el("br"));
      });
    });
    return box;
  }

  function textObj(obj) {
    if (!obj || typeof obj !== "object") return el("span", null, "");
    if (obj.type === "mrkdwn") return mrkdwn(obj.text || "");
    return el("span", "plain", obj.text || "");
  }

  function warn(what, json) {
    const box = el("div", "unknown");
    box.appendChild(el("div", "unknown-title", "⚠ not drawn by the playground: " + what));
    box.appendChild(el("pre", null, JSON.stringify(json, null, 2)));
    return box;
  }

  // ctx.act(element, extra) sends an interaction; ctx.state holds a form's values.
  function element(e, ctx, blockId) {
    if (!e || typeof e !== "object") return warn("element", e);
    const t = e.type;
    if (t === "button") {
      const b = el("button", "bk-button" + (e.style ? " " + e.style : ""), (e.text && e.text.text) || "");
      b.type = "button";
      b.dataset.actionId = e.action_id || "";
      b.addEventListener("click", () => ctx.act(e, { block_id: blockId, value: e.value }));
      return b;
    }
    if (t === "static_select" || t === "external_select" || t === "users_select") {
      const s = el("select", "bk-select");
      s.dataset.actionId = e.action_id || "";
      const ph = el("option", null, (e.placeholder && e.placeholder.text) || "Select");
      ph.value = ""; ph.disabled = true;
      s.appendChild(ph);
      const all = [];
      const add = (parent, o) => {
        const opt = el("option", null, (o.text && o.text.text) || o.value);
        opt.value = o.value; parent.appendChild(opt); all.push(o);
      };
      (e.options || []).forEach(o => add(s, o));
      (e.option_groups || []).forEach(g => {
        const og = el("optgroup"); og.label = (g.label && g.label.text) || "";
        (g.options || []).forEach(o => add(og, o)); s.appendChild(og);
      });
      s.value = e.initial_option ? e.initial_option.value : "";
      if (!e.initial_option) ph.selected = true;
      const pick = () => all.find(o => o.value === s.value);
      if (ctx.form) ctx.form.push([blockId, e.action_id, () => ({ type: t, selected_option: pick() || null })]);
      else s.addEventListener("change", () => ctx.act(e, { block_id: blockId, selected_option: pick() }));
      return s;
    }
    if (t === "multi_static_select") {
      const s = el("select", "bk-select multi");
      s.multiple = true;
      s.dataset.actionId = e.action_id || "";
      const all = [];
      const chosen = new Set((e.initial_options || []).map(o => o.value));
      const add = (parent, o) => {
        const opt = el("option", null, (o.text && o.text.text) || o.value);
        opt.value = o.value; opt.selected = chosen.has(o.value); parent.appendChild(opt); all.push(o);
      };
      (e.options || []).forEach(o => add(s, o));
      (e.option_groups || []).forEach(g => (g.options || []).forEach(o => add(s, o)));
      const picked = () => all.filter(o => [...s.selectedOptions].some(x => x.value === o.value));
      if (ctx.form) ctx.form.push([blockId, e.action_id, () => ({ type: t, selected_options: picked() })]);
      else s.addEventListener("change", () => ctx.act(e, { block_id: blockId, selected_options: picked() }));
      return s;
    }
    if (t === "overflow") {
      const b = el("button", "bk-overflow", "⋯");
      b.type = "button";
      b.addEventListener("click", () => ctx.menu(b, (e.options || []).map(o => [
        (o.text && o.text.text) || o.value, () => ctx.act(e, { block_id: blockId, selected_option: o })])));
      return b;
    }
    if (t === "plain_text_input") {
      const i = el(e.multiline ? "textarea" : "input", "bk-input");
      i.dataset.actionId = e.action_id || "";
      if (e.placeholder) i.placeholder = e.placeholder.text || "";
      if (e.initial_value) i.value = e.initial_value;
      if (ctx.form) ctx.form.push([blockId, e.action_id, () => ({ type: t, value: i.value })]);
      return i;
    }
    if (t === "image") {
      const img = el("img", "bk-image"); img.alt = e.alt_text || ""; img.src = e.image_url || ""; return img;
    }
    if (t === "mrkdwn" || t === "plain_text") return textObj(e);
    if (t === "feedback_buttons") {
      const box = el("span", "feedback");
      for (const half of ["positive_button", "negative_button"]) {
        const h = e[half] || {};
        const b = el("button", "bk-button small", (h.text && h.text.text) || half);
        b.type = "button";
        b.addEventListener("click", () => ctx.act(e, { block_id: blockId, value: h.value }));
        box.appendChild(b);
      }
      return box;
    }
    return warn("element " + t, e);
  }

  function richText(block) {
    const box = el("div", "rich");
    const runs = (parent, elements) => (elements || []).forEach(r => {
      if (r.type === "text") {
        let n = el("span", null, r.text || "");
        const st = r.style || {};
        if (st.code) n = el("code", null, r.text || "");
        if (st.bold) { const b = el("b"); b.appendChild(n); n = b; }
        if (st.italic) { const i = el("i"); i.appendChild(n); n = i; }
        parent.appendChild(n);
      } else if (r.type === "link") {
        const a = el("a", null, r.text || r.url); if (/^https?:/.test(r.url || "")) a.href = r.url; parent.appendChild(a);
      } else if (r.type === "emoji") parent.appendChild(el("span", null, ":" + r.name + ":"));
      else parent.appendChild(el("span", null, r.text || ""));
    });
    (block.elements || []).forEach(section => {
      if (section.type === "rich_text_list") {
        const list = el(section.style === "ordered" ? "ol" : "ul");
        (section.elements || []).forEach(item => { const li = el("li"); runs(li, item.elements); list.appendChild(li); });
        box.appendChild(list);
      } else if (section.type === "rich_text_preformatted") {
        const pre = el("pre"); runs(pre, section.elements); box.appendChild(pre);
      } else if (section.type === "rich_text_quote") {
        const q = el("blockquote"); runs(q, section.elements); box.appendChild(q);
      } else { const p = el("div"); runs(p, section.elements); box.appendChild(p); }
    });
    return box;
  }

  function table(block) {
    const t = el("table", "bk-table");
    (block.rows || []).forEach((row, i) => {
      const tr = el("tr");
      row.forEach(cell => {
        const td = el(i === 0 ? "th" : "td");
        if (cell.type === "rich_text") td.appendChild(richText(cell));
        else td.textContent = cell.text || "";
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    const wrap = el("div", "bk-table-wrap"); wrap.appendChild(t); return wrap;
  }

  function block(b, ctx) {
    if (!b || typeof b !== "object") return warn("block", b);
    const id = b.block_id;
    const box = el("div", "block " + b.type);
    if (id) box.dataset.blockId = id;
    switch (b.type) {
      case "section": {
        const body = el("div", "section-body");
        if (b.text) body.appendChild(textObj(b.text));
        if (b.fields) {
          const f = el("div", "fields");
          b.fields.forEach(x => f.appendChild(textObj(x)));
          body.appendChild(f);
        }
        box.appendChild(body);
        if (b.accessory) box.appendChild(element(b.accessory, ctx, id));
        return box;
      }
      case "header": box.appendChild(el("div", "header-text", (b.text && b.text.text) || "")); return box;
      case "divider": box.appendChild(el("hr")); return box;
      case "context": (b.elements || []).forEach(e => box.appendChild(e.type === "image" ? element(e, ctx, id) : textObj(e))); return box;
      case "actions": (b.elements || []).forEach(e => box.appendChild(element(e, ctx, id))); return box;
      case "context_actions": (b.elements || []).forEach(e => box.appendChild(element(e, ctx, id))); return box;
      case "rich_text": box.appendChild(richText(b)); return box;
      case "table": box.appendChild(table(b)); return box;
      case "markdown": box.appendChild(el("div", "markdown", b.text || "")); return box;
      case "image": box.appendChild(element({ ...b, type: "image" }, ctx, id)); return box;
      case "input": {
        box.appendChild(el("label", "input-label", (b.label && b.label.text) || ""));
        box.appendChild(element(b.element, ctx, id));
        if (b.hint) box.appendChild(el("div", "hint", b.hint.text || ""));
        box.appendChild(el("div", "input-error"));
        return box;
      }
      default: return warn("block " + b.type, b);
    }
  }

  function blocks(list, ctx) {
    const box = el("div", "blocks");
    if (!Array.isArray(list)) { box.appendChild(warn("blocks (not a list)", list)); return box; }
    list.forEach(b => box.appendChild(block(b, ctx)));
    return box;
  }

  return { el, blocks, mrkdwn, names };
})();
