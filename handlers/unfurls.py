"""Model links pasted in Slack (Hugging Face, ModelScope, Ollama: data/links.toml): the table's
answer for the model appears under the link, with nobody asking (link_shared -> chat.unfurl).
A link the table has no answer for gets no card. Retries of the event are dropped before here
(handlers.dedupe), and one message's links are unfurled in one call, each once."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.preferences import Preferences
from mincards.bot.facts.links import model_sites
from mincards.bot.reading.model_links import ModelLink, read_link
from mincards.bot.replies.render_unfurl import UNFURL_ASK_ACTION, unfurl_card
from mincards.bot.replies.render_views import ask_modal
from mincards.handlers import metrics
from mincards.handlers.estimates import with_hub_estimate
from mincards.handlers.services import Services

EVENTS = ("link_shared",)
SCOPES = ("links:read", "links:write")
log = logging.getLogger(__name__)


def links_of(event: dict[str, Any], limit: int) -> list[ModelLink]:
    """The model links of the event, each URL once, at most `limit`."""
    links = event.get("links")
    if not isinstance(links, list):
        return []
    sites = model_sites()
    found: dict[str, ModelLink] = {}
    for item in links:
        url = item.get("url") if isinstance(item, dict) else None
        link = read_link(url, sites) if isinstance(url, str) else None
        if link is not None and link.url not in found:
            found[link.url] = link
        if len(found) >= limit:
            break
    return list(found.values())


def where(event: dict[str, Any]) -> dict[str, str] | None:
    """chat.unfurl's target: the message (channel and ts), or for a link being composed or a
    message in a channel the bot cannot see, the unfurl_id and source Slack gave."""
    unfurl_id, source = event.get("unfurl_id"), event.get("source")
    if isinstance(unfurl_id, str) and unfurl_id and isinstance(source, str) and source:
        return {"unfurl_id": unfurl_id, "source": source}
    channel, ts = event.get("channel"), event.get("message_ts")
    if isinstance(channel, str) and channel and isinstance(ts, str) and ts:
        return {"channel": channel, "ts": ts}
    return None


def register(app: AsyncApp, services: Services) -> None:
    engine = services.engine
    knowledge = engine.knowledge

    def answer_for(link: ModelLink, asked: Preferences) -> Answer:
        answer = engine.recall(link.name, None, asked)
        metrics.answer(answer.intent)
        return answer

    @app.event("link_shared")
    @services.inflight.track
    async def unfurl_model_links(event: dict[str, Any], client: AsyncWebClient,
                                 context: AsyncBoltContext) -> None:
        target = where(event)
        links = links_of(event, model_sites().max_links)
        if target is None or not links:
            metrics.surface_result("unfurl", "malformed" if target is None else "no_model_link")
            return
        user = event.get("user")
        language = await services.language_for(client, context,
                                               user if isinstance(user, str) else None)
        # In the poster's language; never narrowed by anyone's settings: the whole channel
        # sees the card.
        asked = Preferences(language=language)
        cards: dict[str, Any] = {}
        for link in links:
            answer = await services.answering.run(partial(answer_for, link, asked), link.name)
            # A Hub model neither the table nor the known-models data has: its estimate from
            # the Hub (on a thread, bounded by the Hub's deadline), as a mention gets.
            answer = await with_hub_estimate(engine, answer, link.name)
            card = unfurl_card(knowledge, answer, link)
            if card is not None:
                cards[link.url] = card
        if not cards:
            metrics.surface_result("unfurl", "no_answer")
            return  # silence, not noise
        if "unfurl_id" in target:
            await client.chat_unfurl(unfurls=cards, unfurl_id=target["unfurl_id"],
                                     source=target["source"])
        else:
            await client.chat_unfurl(unfurls=cards, channel=target["channel"],
                                     ts=target["ts"])
        metrics.surface_result("unfurl", "unfurled")

    @app.action(UNFURL_ASK_ACTION)
    @services.inflight.track
    async def ask_about_linked_model(ack: AsyncAck, body: dict[str, Any],
                                     action: dict[str, Any], client: AsyncWebClient,
                                     context: AsyncBoltContext) -> None:
        await ack()
        trigger = body.get("trigger_id")
        who = body.get("user")
        user = who.get("id") if isinstance(who, dict) else None
        if not isinstance(trigger, str) or not trigger:
            log.warning("an unfurl's button without a trigger_id; no form to open")
            return
        value = action.get("value")
        picked = value if isinstance(value, str) and value in knowledge.table.models() else None
        language = await services.language_for(client, context,
                                               user if isinstance(user, str) else None)
        await client.views_open(trigger_id=trigger, view=ask_modal(knowledge, language, picked))
