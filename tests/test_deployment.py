"""The image and the deployments (issue 39, item 4): Dockerfile, compose.yaml and the Kubernetes
manifests under deploy/kubernetes/. No image can be built here (no registry of base images is
reachable), so what they say is checked against the app itself: the Kubernetes manifests
against Kubernetes' own schemas (kubernetes-validate, strict), every variable they set is one
the app reads, the probes ask paths the app serves, every grace period is longer than the
drain, and the entry point and health commands they name run in the checkout over real
processes (a real Redis and PostgreSQL) and answer as the platform expects."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import yaml

from mincards.bot.facts.checked_cache import CACHE_ENV
from mincards.handlers.readiness import HEALTH_PATH, READY_PATH
from mincards.handlers.settings import Settings, secret_names
from tests.bot_process import BOT_TOKEN, SIGNING_SECRET, running_bot
from tests.postgres_process import Postgres, running_postgres
from tests.redis_process import running_redis
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, mention

ROOT = Path(__file__).resolve().parent.parent
KUBERNETES = ROOT / "deploy" / "kubernetes"
MINCARDS = Path(sys.executable).parent / "mincards"
# Variables the Python runtime and pip read in the image, not the app.
RUNTIME = frozenset({"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PIP_NO_CACHE_DIR",
                     "PIP_DISABLE_PIP_VERSION_CHECK"})
# Gunicorn's graceful timeout is the drain plus this (handlers/serve.py).
GUNICORN_MARGIN = 1.0


def app_variables() -> frozenset[str]:
    """Every variable the app reads: its settings, each secret's NAME_FILE, the cache and
    state folders."""
    settings = {f.alias for f in Settings.model_fields.values() if f.alias}
    return frozenset({*settings, *(f"{n}_FILE" for n in secret_names()), CACHE_ENV,
                      "XDG_STATE_HOME"})


# --- Dockerfile -------------------------------------------------------------------------------

def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) in order, continuation lines joined, comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line.rstrip().removesuffix("\\") + " "
        if not line.rstrip().endswith("\\"):
            word, _, rest = pending.strip().partition(" ")
            instructions.append((word.upper(), " ".join(rest.split())))
            pending = ""
    return instructions


def one(instruction: str) -> str:
    found = [args for word, args in dockerfile() if word == instruction]
    assert len(found) == 1, f"{instruction}: {found}"
    return found[0]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for word, args in dockerfile():
        if word == "ENV":
            env.update(dict(pair.split("=", 1) for pair in shlex.split(args)))
    return env


def test_the_image_runs_mincards_serve_as_a_user_not_root() -> None:
    assert one("FROM").startswith("python:3.11")
    user = one("USER").split(":")[0]
    assert user not in ("root", "0") and int(user) >= 1000
    assert json.loads(one("ENTRYPOINT")) == ["mincards", "serve"]
    assert json.loads(one("CMD")) == ["--mode", "http"]
    assert one("STOPSIGNAL") == "SIGTERM"
    assert one("HEALTHCHECK").split(" CMD ", 1)[1] == '["mincards", "probe"]'


def test_the_image_installs_what_the_suite_passed_with_from_files_that_exist() -> None:
    install = next(args for word, args in dockerfile() if word == "RUN" and "pip install" in args)
    assert "--constraint constraints.txt" in install
    extra = install.split("'.[", 1)[1].split("]'", 1)[0]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert extra in extras
    for word, args in dockerfile():
        if word == "COPY":
            *sources, _target = args.split()
            for source in sources:
                assert (ROOT / source).exists(), source
    assert "constraints.txt" in " ".join(a for w, a in dockerfile() if w == "COPY")


def test_the_build_context_never_holds_a_local_env_file() -> None:
    """.dockerignore: everything is out but what the Dockerfile copies."""
    lines = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines[0] == "*"
    kept = {line[1:].rstrip("/") for line in lines if line.startswith("!")}
    copied = {source.rstrip("/") for word, args in dockerfile() if word == "COPY"
              for source in args.split()[:-1]}
    assert copied <= kept and ".env" not in kept and "tests" not in kept


def test_the_image_sets_only_variables_the_app_reads() -> None:
    env = image_env()
    assert set(env) - RUNTIME <= app_variables(), set(env) - RUNTIME - app_variables()
    assert int(one("EXPOSE")) == int(env["PORT"])


# --- compose.yaml ---------------------------------------------------------------------------

def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def seconds(text: str) -> float:
    """A compose duration ('15s', '1m30s')."""
    total, number = 0.0, ""
    for char in text:
        if char.isdigit() or char == ".":
            number += char
        else:
            total += float(number) * {"s": 1, "m": 60, "h": 3600}[char]
            number = ""
    return total


def test_compose_runs_the_bot_with_redis_and_postgresql_and_secrets_in_files() -> None:
    spec = compose()
    bot = spec["services"]["bot"]
    assert set(spec["services"]) == {"bot", "redis", "postgres"}
    assert bot["build"] == "." and bot["command"] == ["--mode", "http"]
    env = bot["environment"]
    assert set(env) <= app_variables(), set(env) - app_variables()
    # No secret as a value: each comes from a file under /run/secrets.
    assert not set(env) & set(secret_names()) - {"REDIS_URL"}
    for name, path in env.items():
        if name.endswith("_FILE"):
            secret = path.removeprefix("/run/secrets/")
            assert secret in bot["secrets"] and secret in spec["secrets"], name
    assert env["REDIS_URL"].startswith("redis://redis:")
    for dependency in ("redis", "postgres"):
        assert bot["depends_on"][dependency] == {"condition": "service_healthy"}
        assert spec["services"][dependency]["healthcheck"]["test"][0] == "CMD"
    assert bot["healthcheck"]["test"] == ["CMD", "mincards", "probe", "--ready"]
    drain = float(env["DRAIN_SECONDS"])
    assert seconds(bot["stop_grace_period"]) > drain + GUNICORN_MARGIN
    assert bot["read_only"] is True and "/var/cache/mincards" in bot["tmpfs"]


def test_compose_keeps_secret_files_out_of_git() -> None:
    ignored = (ROOT / ".gitignore").read_text().split()
    folders = {Path(s["file"]).parts[0] for s in compose()["secrets"].values()}
    assert folders == {"secrets"} and "secrets/" in ignored


# --- Kubernetes -------------------------------------------------------------------------------

def manifests() -> list[dict[str, Any]]:
    return [doc for path in sorted(KUBERNETES.glob("*.yaml"))
            for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


@pytest.mark.parametrize("version", ["1.30.0", "latest"])
def test_the_kubernetes_manifests_are_valid_for_kubernetes(version: str) -> None:
    import kubernetes_validate

    version = kubernetes_validate.latest_version() if version == "latest" else version
    kinds = set()
    for manifest in manifests():
        kubernetes_validate.validate(manifest, version, strict=True)
        kinds.add(manifest["kind"])
    assert kinds == {"Deployment", "Service", "Secret"}


def test_kubernetes_refuses_what_it_does_not_know() -> None:
    """The check can fail: a misspelt field is refused."""
    import kubernetes_validate

    deployment = next(m for m in manifests() if m["kind"] == "Deployment")
    deployment["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, kubernetes_validate.latest_version(),
                                     strict=True)


def test_the_deployment_probes_drains_and_reads_secrets_as_the_app_does() -> None:
    by_kind = {m["kind"]: m for m in manifests()}
    pod = by_kind["Deployment"]["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert set(env) <= app_variables(), set(env) - app_variables()
    assert not set(env) & set(secret_names())  # secrets only as files
    port = int(env["PORT"])
    (named,) = container["ports"]
    assert named["containerPort"] == port
    assert container["livenessProbe"]["httpGet"]["path"] == HEALTH_PATH
    assert container["startupProbe"]["httpGet"]["path"] == HEALTH_PATH
    assert container["readinessProbe"]["httpGet"]["path"] == READY_PATH
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["port"] == named["name"]
    # The grace period holds the preStop pause, the drain and gunicorn's margin.
    pause = float(container["lifecycle"]["preStop"]["exec"]["command"][1])
    assert pod["terminationGracePeriodSeconds"] > (
        pause + float(env["DRAIN_SECONDS"]) + GUNICORN_MARGIN)
    # Each NAME_FILE points into the mounted Secret, at a key the Secret has.
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    secret = by_kind["Secret"]
    (secret_volume,) = [n for n, v in volumes.items()
                        if v.get("secret", {}).get("secretName") == secret["metadata"]["name"]]
    for name, path in env.items():
        if name.endswith("_FILE"):
            folder, key = path.rsplit("/", 1)
            assert folder == mounts[secret_volume] and key in secret["stringData"], name
    # The same user as the image's, and a read-only root with the app's folders writable.
    assert str(pod["securityContext"]["runAsUser"]) == one("USER").split(":")[0]
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    writable = set(mounts.values())
    image = image_env()
    assert {image["XDG_STATE_HOME"], image[CACHE_ENV]} <= writable
    service = by_kind["Service"]
    assert service["spec"]["selector"] == by_kind["Deployment"]["spec"]["selector"]["matchLabels"]
    assert service["spec"]["ports"][0]["targetPort"] == named["name"]


# --- the commands they name, run in the checkout --------------------------------------------

@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    with running_postgres() as server:
        yield server


def run_command(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A health command as the platform runs it: by name, with the container's environment."""
    assert argv[0] == "mincards"
    return subprocess.run([str(MINCARDS), *argv[1:]], env=env, capture_output=True, text=True,
                          timeout=60)


def test_the_entry_point_and_health_commands_answer_as_the_platform_expects(
        emulator: SlackEmulator, postgres: Postgres, tmp_path: Path) -> None:
    """compose's bot, as compose runs it: the image's environment and the service's, the
    secrets as files, a real Redis and PostgreSQL. The image's and compose's health commands
    succeed; with Redis stopped the readiness command fails naming it while the liveness one
    still succeeds; SIGTERM ends it within compose's stop grace period."""
    spec = compose()["services"]["bot"]
    secrets = tmp_path / "run-secrets"
    secrets.mkdir()
    contents = {"database_url": postgres.url, "slack_bot_token": BOT_TOKEN,
                "slack_signing_secret": SIGNING_SECRET}
    for name, content in contents.items():
        (secrets / name).write_text(content + "\n", encoding="utf-8")
    (tmp_path / "redis").mkdir()
    with running_redis(tmp_path / "redis") as redis_url:
        env = {**image_env(), **{k: str(v) for k, v in spec["environment"].items()}}
        env = {k: v.replace("/run/secrets/", f"{secrets}/") for k, v in env.items()}
        env.update({"REDIS_URL": redis_url, "HOST": "127.0.0.1",
                    CACHE_ENV: str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path / "state"),
                    # the tests' own, unset: the secrets come from the files alone
                    "SLACK_BOT_TOKEN": "", "SLACK_SIGNING_SECRET": ""})
        env.pop("PORT")  # running_bot gives it a free port
        entry = json.loads(one("CMD"))
        with running_bot(emulator, tmp_path, extra_env=env, serve_args=tuple(entry)) as bot:
            probe_env = {**os.environ, "PORT": bot.base_url.rsplit(":", 1)[1]}
            healthcheck = json.loads(one("HEALTHCHECK").split(" CMD ", 1)[1])
            alive = run_command(healthcheck, probe_env)
            assert alive.returncode == 0 and "/healthz: 200" in alive.stdout
            ready = run_command(spec["healthcheck"]["test"][1:], probe_env)
            assert ready.returncode == 0, ready.stderr
            assert "database ok" in ready.stdout and "redis ok" in ready.stdout
            sender = SlackSender(bot.base_url, SIGNING_SECRET)
            assert sender.event(mention("qwen2.5-7b lora", channel="CDEPLOY")).status == 200
            (call,) = emulator.wait_for_channel("CDEPLOY", timeout=30)
            assert call.headers["authorization"] == f"Bearer {BOT_TOKEN}"
            log = bot.log_text()
    assert BOT_TOKEN not in log and SIGNING_SECRET not in log and "Traceback" not in log


def test_readiness_fails_naming_redis_and_sigterm_ends_within_the_grace_period(
        emulator: SlackEmulator, tmp_path: Path) -> None:
    spec = compose()["services"]["bot"]
    grace = seconds(spec["stop_grace_period"])
    (tmp_path / "redis").mkdir()
    with ExitStack() as redis:
        env = {"REDIS_URL": redis.enter_context(running_redis(tmp_path / "redis")),
               "DRAIN_SECONDS": str(spec["environment"]["DRAIN_SECONDS"]),
               "WEB_CONCURRENCY": str(spec["environment"]["WEB_CONCURRENCY"])}
        with running_bot(emulator, tmp_path, extra_env=env, serve_args=("--mode", "http")) as bot:
            probe_env = {**os.environ, "PORT": bot.base_url.rsplit(":", 1)[1]}
            assert run_command(["mincards", "probe", "--ready"], probe_env).returncode == 0
            redis.close()  # Redis stops; the bot runs on
            deadline = time.monotonic() + 30
            while True:
                ready = run_command(["mincards", "probe", "--ready"], probe_env)
                if ready.returncode != 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert ready.returncode == 1 and "503" in ready.stderr and "redis down" in ready.stderr
            assert run_command(["mincards", "probe"], probe_env).returncode == 0
            started = time.monotonic()
            os.killpg(bot.process.pid, signal.SIGTERM)
            bot.process.wait(timeout=grace + 30)  # measured below, never cut short
            took = time.monotonic() - started
            # Nothing was in flight: the stop is gunicorn's and the workers' own, well inside
            # the time compose gives before it kills.
            assert took < grace, f"{took:.1f} s to stop, compose kills after {grace:g} s"
            assert "Traceback" not in bot.log_text()


def test_a_probe_of_nothing_or_of_a_hung_process_fails_in_one_line(tmp_path: Path) -> None:
    import socket

    from tests.bot_process import free_port

    refused = run_command(["mincards", "probe", "--port", str(free_port())], dict(os.environ))
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "/healthz: Connection refused" in refused.stderr
    with socket.socket() as hung:  # accepts (the kernel does), never answers
        hung.bind(("127.0.0.1", 0))
        hung.listen(1)
        env = {**os.environ, "PORT": str(hung.getsockname()[1])}
        silent = run_command(["mincards", "probe", "--ready"], env)
    assert silent.returncode == 1 and "/readyz: no answer within 3 s" in silent.stderr
    bad = run_command(["mincards", "probe"], {**os.environ, "HEALTH_PORT": "http"})
    assert bad.returncode == 2 and "HEALTH_PORT is not a port" in bad.stderr
    assert "Traceback" not in refused.stderr + silent.stderr + bad.stderr
