"""The Slack app manifests ask for exactly what the code uses: scopes, events, command, modes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mincards.handlers import commands, shortcuts
from mincards.handlers.app import SURFACES
from mincards.handlers.settings import Settings
from tests.conftest import NO_SHARED, ROOT, SHARED

MANIFESTS = {"socket": ROOT / "manifest.json", "http": ROOT / "manifest.http.json"}


def load(mode: str) -> dict:  # type: ignore[type-arg]
    return json.loads(MANIFESTS[mode].read_text(encoding="utf-8"))


@pytest.mark.parametrize("mode", MANIFESTS)
def test_scopes_events_and_command_match_the_code(mode: str) -> None:
    manifest = load(mode)
    events = {e for s in SURFACES for e in getattr(s, "EVENTS", ())}
    scopes = {sc for s in SURFACES for sc in getattr(s, "SCOPES", ())}
    assert set(manifest["settings"]["event_subscriptions"]["bot_events"]) == events
    assert set(manifest["oauth_config"]["scopes"]["bot"]) == scopes
    (command,) = manifest["features"]["slash_commands"]
    assert command["command"] == commands.COMMAND
    assert {(s["type"], s["callback_id"]) for s in manifest["features"]["shortcuts"]} == {
        ("global", shortcuts.ASK_SHORTCUT), ("message", shortcuts.THIS_SHORTCUT)}
    assert manifest["settings"]["interactivity"]["is_enabled"] is True
    home = manifest["features"]["app_home"]
    assert home["home_tab_enabled"] and home["messages_tab_enabled"]
    assert home["messages_tab_read_only_enabled"] is False


def test_socket_manifest_uses_socket_mode_and_no_urls() -> None:
    manifest = load("socket")
    assert manifest["settings"]["socket_mode_enabled"] is True
    assert "request_url" not in json.dumps(manifest) and '"url"' not in json.dumps(manifest)


def test_http_manifest_points_everything_at_the_events_path() -> None:
    manifest = load("http")
    assert manifest["settings"]["socket_mode_enabled"] is False
    urls = [manifest["settings"]["event_subscriptions"]["request_url"],
            manifest["settings"]["interactivity"]["request_url"],
            manifest["features"]["slash_commands"][0]["url"]]
    assert all(u.endswith("/slack/events") for u in urls)


def test_env_example_lists_every_setting() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([A-Z_]+)=", text, re.MULTILINE))
    aliases = {f.alias for f in Settings.model_fields.values()}
    assert listed == aliases


def test_procfile_has_web_and_worker() -> None:
    lines = dict(line.split(": ", 1) for line in
                 Path(ROOT / "Procfile").read_text(encoding="utf-8").splitlines() if line)
    assert lines == {"web": "mincards serve --mode http", "worker": "mincards serve --mode socket"}


@pytest.mark.parametrize("mode", MANIFESTS)
def test_manifest_validates_against_slacks_own_schema(mode: str) -> None:
    """Slack's JSON schema (../shared/slack-manifest-schema), its versioned parts resolved to
    the local copies by their published addresses."""
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    folder = SHARED / "slack-manifest-schema"
    if not folder.exists():
        pytest.skip(NO_SHARED)
    top = json.loads((folder / "manifest.schema.json").read_text(encoding="utf-8"))
    resources = []
    for part in ("manifest.schema.1.0.0.json", "manifest.schema.2.0.0.json"):
        schema = json.loads((folder / part).read_text(encoding="utf-8"))
        resource = referencing.Resource.from_contents(
            schema, default_specification=referencing.jsonschema.DRAFT7)
        resources.append((f"https://raw.githubusercontent.com/slackapi/manifest-schema/v0.5.0/"
                          f"schemas/{part}", resource))
    registry = referencing.Registry().with_resources(resources)
    validator = jsonschema.Draft7Validator(top, registry=registry)
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}"
              for e in validator.iter_errors(load(mode))]
    assert errors == []
    bad = load(mode)
    bad["features"]["shortcuts"][0]["name"] = "x" * 25  # the schema does check
    assert list(validator.iter_errors(bad))


@pytest.mark.parametrize("mode", MANIFESTS)
def test_unfurl_domains_are_the_model_sites_hosts(mode: str) -> None:
    from mincards.bot.facts.links import model_sites

    assert load(mode)["features"]["unfurl_domains"] == list(model_sites().hosts)


@pytest.mark.parametrize("mode", MANIFESTS)
def test_the_agent_views_prompts_are_answered_from_the_table(mode: str) -> None:
    """Slack's agent messaging experience, not the legacy assistant_view (deprecated in
    2027: docs.slack.dev/ai/migrating-to-agent-messaging)."""
    from mincards.bot.answering.engine import Engine

    engine = Engine()
    features = load(mode)["features"]
    assert "assistant_view" not in features
    view = features["agent_view"]
    assert 0 < len(view["agent_description"]) <= 300
    assert 1 <= len(view["suggested_prompts"]) <= 4
    for prompt in view["suggested_prompts"]:
        answer = engine.ask(prompt["message"])
        assert answer.intent in ("lookup", "compare", "capacity", "plan"), prompt


@pytest.mark.parametrize("mode", MANIFESTS)
def test_the_workflow_step_is_declared_with_every_output(mode: str) -> None:
    from mincards.bot.facts.knowledge import knowledge
    from mincards.bot.replies.step_outputs import STEP_CALLBACK_ID, output_names

    manifest = load(mode)
    assert manifest["settings"]["function_runtime"] == "remote"
    assert manifest["settings"]["org_deploy_enabled"] is True  # custom steps need org-ready
    step = manifest["functions"][STEP_CALLBACK_ID]
    assert step["input_parameters"]["model"]["is_required"] is True
    assert set(step["output_parameters"]) == set(output_names(knowledge()))


def test_the_oauth_manifest_rotates_tokens_and_the_single_token_one_does_not() -> None:
    # The app refreshes rotating tokens (handlers/installs.py); a pasted single token cannot be.
    import json

    http = json.loads(MANIFESTS["http"].read_text(encoding="utf-8"))
    socket = json.loads(MANIFESTS["socket"].read_text(encoding="utf-8"))
    assert http["settings"]["token_rotation_enabled"] is True
    assert socket["settings"]["token_rotation_enabled"] is False
