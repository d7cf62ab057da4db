"""The `mincards` command: ask, estimate, import-table, diff-table, check-page, serve. Only
`serve` and `check-page --post-to` import Slack."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mincards.bot.errors import MincardsError

if TYPE_CHECKING:
    from mincards.bot.answering.answer import Answer
    from mincards.bot.answering.engine import Engine
    from mincards.bot.answering.preferences import Preferences
    from mincards.bot.estimating.shape import Shape
    from mincards.bot.facts.knowledge import Knowledge
    from mincards.bot.facts.table import Table
    from mincards.bot.importing.page_watch import WatchState

DATA_DIR_HELP = ("use the data folder DIR instead of the one the package ships "
                 "(default: $MINCARDS_DATA, else the package's own)")


def _ask(args: argparse.Namespace) -> int:
    from mincards.bot.answering.conversation import Context, context_after
    from mincards.bot.answering.engine import Engine
    from mincards.bot.replies.lead import lead
    from mincards.bot.replies.render_estimate import short_reply
    from mincards.bot.replies.render_json import render_json
    from mincards.bot.replies.render_rows import render_rows
    from mincards.bot.replies.render_text import render_text

    engine = Engine()
    context: Context | None = None
    preferences = _preferences(args, engine)

    def answer(question: str) -> str | None:
        nonlocal context
        if not question.strip():
            # An empty line starts a new conversation and asks nothing: no reply, except the
            # JSON's one object per line (what a script reading it counts on).
            context = None
            if not args.json:
                return None
        result = engine.ask(question, context if args.thread else None, preferences)
        result = _with_hub(engine, result, question)
        context = context_after(result, context) if question.strip() else None
        if args.json:
            return json.dumps(render_json(engine.knowledge, result, question),
                              ensure_ascii=False)
        if args.blocks:
            # What chat.postMessage would carry: paste it into Block Kit Builder.
            from mincards.bot.replies.render_blocks import message

            short = preferences is not None and preferences.length == "short"
            return json.dumps(message(engine.knowledge, result, question=question,
                                      short=short), ensure_ascii=False, indent=2)
        if args.short or (preferences is not None and preferences.length == "short"
                          and not args.format):
            return short_reply(engine.knowledge, result)
        if args.format:
            # No rows (a name the table lacks, help): the sentence that says why, on stderr,
            # so that a script reading the table sees none.
            rows = render_rows(engine.knowledge, result, args.format)
            if not rows:
                print(lead(engine.knowledge, result), file=sys.stderr)
                return None
            return rows
        return render_text(engine.knowledge, result, every=args.all)

    # Plain text is followed by an empty line, so that answers to many lines stay apart.
    spaced = not (args.json or args.short or args.format or args.blocks)
    if args.question == ["-"]:
        # One answer per input line, in order, flushed so a pipe sees each as it comes; a line
        # that gets no answer (a name the table lacks) does not stop the others.
        for line in sys.stdin:
            reply = answer(line.rstrip("\r\n"))
            if reply is not None:
                print(reply, flush=True)
            if spaced:
                print(flush=True)
        return 0
    reply = answer(" ".join(args.question))
    if reply is not None:
        print(reply)
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from mincards.bot.replies.render_json import SCHEMA

    try:
        number = version("mincards")
    except PackageNotFoundError:
        number = "unknown (not installed)"
    return f"mincards {number}, JSON schema {SCHEMA}"


class _Version(argparse.Action):
    """--version, worked out only when asked (reading the package's metadata costs a start)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(_version())
        parser.exit()


# Raw, so that the printf lines print as typed and paste as they are.
ASK_EXAMPLES = r"""examples:
  mincards ask "qwen 2.5 72b lora 8k?"                 the reply as text
  mincards ask --short "can I LoRA qwen2.5-32b on 8 cards?"   only the sentence that answers
  mincards ask --format markdown "Qwen/Qwen2.5-72B-Instruct"  the rows, to paste
  mincards ask --json "llama3.1-70b full"              one JSON object (README: the contract)
  printf 'qwen 7b\nmixtral lora\n' | mincards ask --json -     one object per line
  printf 'qwen2.5-72b\nand lora?\n' | mincards ask --thread -   a conversation

exit status: 0 when every question got a reply (a name the table lacks is a reply: it says so);
2 for a usage or data error. With '-' every line is answered, whatever one line gets."""


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2025-10-22") from None


def _import_table(args: argparse.Namespace) -> int:
    from mincards.bot.facts.knowledge import default_data_dir, is_installed_copy
    from mincards.bot.importing.data_import import apply_import, plan_import
    from mincards.bot.importing.table_diff import diff_text

    data_dir = default_data_dir()
    if not args.check and is_installed_copy(data_dir):
        raise MincardsError(f"{data_dir} is the installed package's own data; import into a "
                            "copy of it instead: mincards import-table FILE --data-dir DIR")
    plan = plan_import(data_dir, Path(args.file), date=args.date,
                       allow_removals=args.allow_removals or args.check,
                       allow_older=args.allow_older or args.check)
    flavours = {k: v.display for k, v in plan.hardware.flavours.items()}
    if args.check:
        current = data_dir / "table.csv"
        text = current.read_text(encoding="utf-8-sig") if current.exists() else ""
        if text != plan.table_text:
            print(f"{current} differs from what {args.file} imports to", file=sys.stderr)
            if plan.diff is not None:
                print(diff_text(plan.diff, flavours), file=sys.stderr)
            return 1
        print(f"{current} is up to date ({len(plan.table.entries)} entries)")
        return 0
    changed = apply_import(data_dir, plan)
    table = plan.table
    print(f"imported {args.file} into {data_dir}: {len(table.models())} models, "
          f"{len(table.entries)} entries, frameworks {', '.join(table.framework_ids)} "
          f"(page dated {table.source.date_text()})")
    if plan.diff is not None:
        print(diff_text(plan.diff, flavours))
    if plan.new_catalogue_entries:
        print(f"added {len(plan.new_catalogue_entries)} new model(s) to "
              f"{data_dir / 'models.toml'}; review their display names and add aliases:")
        for line in plan.new_catalogue_entries:
            print("  " + line)
    if plan.disputed:
        print(f"{len(plan.disputed)} table entries are two steps or more from the estimate of "
              "their model held out (worth checking against the source):")
        for line in plan.disputed:
            print("  " + line)
    if not changed:
        print("nothing to write: the data folder already holds this table")
    return 0


def _preferences(args: argparse.Namespace, engine: Engine) -> Preferences | None:
    """The flags' preferences over the config file's ($XDG_CONFIG_HOME/mincards/config.toml):
    what every answer is narrowed to unless its question names its own."""
    from mincards.bot.answering.preferences import Preferences
    from mincards.bot.answering.preferences_file import load_preferences, read_names

    if args.no_settings:
        return None
    stored = load_preferences(engine)
    flags = Preferences(
        flavours=read_names(engine, args.flavour or [], "flavours", "--flavour"),
        frameworks=read_names(engine, args.framework or [], "frameworks", "--framework"))
    chosen = flags.over(stored) if stored is not None else flags
    return chosen if chosen != Preferences() else None


def _with_hub(engine: Engine, answer: Answer, question: str) -> Answer:
    """The answer, with the estimate from the Hugging Face Hub when the question names a Hub
    model that the table and the known-models data lack (as the Slack app adds it)."""
    from mincards.handlers.estimates import answered_with, fetched, hub_repo_asked

    ask = hub_repo_asked(answer, question, engine.knowledge.vocabulary.not_name_words())
    return answer if ask is None else answered_with(engine, answer, question, ask.name,
                                                    fetched(ask))


def _estimate(args: argparse.Namespace) -> int:
    from mincards.bot.estimating.estimate import estimator
    from mincards.bot.facts.knowledge import knowledge
    from mincards.bot.replies.render_estimate import estimate_json, estimate_text

    if args.validate or args.calibrate:
        return _calibrate(args)
    if not args.model and not args.config:
        raise MincardsError("name a model (a name, a Hugging Face id or link) or give "
                            "--config FILE")
    known = knowledge()
    shape, said = _shape_for(args, known)
    if shape is None:
        if args.json:
            print(json.dumps({"model": " ".join(args.model), "in_table": said, "estimates": []},
                             ensure_ascii=False))
        else:
            print(said)
        return 0
    estimate = estimator(known).estimate(shape)
    if args.json:
        print(json.dumps(estimate_json(estimate), ensure_ascii=False))
    else:
        if said:
            print(said)
        print(estimate_text(known, estimate, "en"))
    return 0


def _shape_for(args: argparse.Namespace, known: Knowledge) -> tuple[Shape | None, str]:
    """(the shape to estimate, a line on what the table says) or (None, why not: the table
    answers it)."""
    from mincards.bot.answering.engine import Engine
    from mincards.bot.estimating.hf_config import parse_config
    from mincards.bot.estimating.shape import ShapeError
    from mincards.bot.replies.i18n import t
    from mincards.bot.replies.lead import lead

    name = " ".join(args.model)
    if args.config:
        path = Path(args.config)
        try:
            with path.open("rb") as file:
                text = file.read(2_000_000)
            return parse_config(text, name or path.stem, "config"), ""
        except OSError as exc:
            raise MincardsError(f"cannot read {path}: {exc.strerror or exc}") from None
        except ShapeError as exc:
            raise MincardsError(f"{path}: {exc}") from None
    engine = Engine(known)
    answer = engine.ask(name)
    if answer.stand_in is not None:  # the table model's architecture: the table answers it
        return None, t("en", "estimate.stand_in", asked=answer.stand_in.asked,
                       model=known.catalogue[answer.stand_in.model].display, question=name)
    if answer.estimate is not None:
        return answer.estimate.shape, ""
    if answer.models and answer.intent not in ("ambiguous", "not_found", "help"):
        model = known.catalogue[answer.models[0]].display
        return None, t("en", "estimate.in_table", model=model)
    from mincards.handlers.hub import hub_shape, repo_id

    repo = repo_id(name)
    if repo is not None:
        return hub_shape(repo), ""
    if answer.intent in ("not_found", "help"):  # the name is a model's: the Hub may know it
        from mincards.handlers.hub_search import searched_shape

        return searched_shape(name), ""
    if answer.intent == "ambiguous":
        raise MincardsError(lead(known, answer))
    raise MincardsError(f"no shape known for {name!r}: give its Hugging Face id or its "
                        "config.json (--config FILE)")


def _calibrate(args: argparse.Namespace) -> int:
    from mincards.bot.estimating.calibrate import calibrate
    from mincards.bot.estimating.calibration_file import dump_calibration
    from mincards.bot.estimating.estimate import stored_if_current
    from mincards.bot.facts.calibration import FILE
    from mincards.bot.facts.knowledge import default_data_dir, is_installed_copy, knowledge
    from mincards.bot.importing.data_import import replace_atomically
    from mincards.bot.replies.render_estimate import validation_json, validation_report

    known = knowledge()
    # --validate: the calibration in use when it was made from these facts and measured nested
    # (each model held out of the choice of terms too), else one made and measured so now;
    # --calibrate: made now, and written.
    current = None if args.calibrate else stored_if_current(known)
    if current is not None and not current.nested:
        current = None
    made = current if current is not None else calibrate(known, nested=True)
    if args.json:
        print(json.dumps(validation_json(made), ensure_ascii=False))
    else:
        print(validation_report(made))
    if args.calibrate:
        data_dir = default_data_dir()
        if is_installed_copy(data_dir):
            raise MincardsError(f"{data_dir} is the installed package's own data; calibrate a "
                                "copy of it instead: --data-dir DIR")
        replace_atomically(data_dir / FILE, dump_calibration(made))
        print(f"wrote {data_dir / FILE}", file=sys.stderr)
    return 0


def _diff_side(path: Path) -> Table:
    """A table from a page file (any format), a data folder or a table.csv."""
    from mincards.bot.facts.hardware import load_hardware
    from mincards.bot.facts.knowledge import default_data_dir, legacy_framework_names
    from mincards.bot.facts.table import load_table
    from mincards.bot.facts.vocabulary import load_vocabulary
    from mincards.bot.importing.data_import import read_page

    data_dir = default_data_dir()
    vocabulary = load_vocabulary(data_dir / "vocabulary.toml")
    hardware = load_hardware(data_dir / "hardware.toml")
    names = legacy_framework_names(vocabulary, hardware)
    if path.is_dir():
        return load_table(path / "table.csv", names=names)
    if path.suffix.lower() == ".csv":
        return load_table(path, names=names)
    if not path.exists():
        raise MincardsError(f"{path}: no such file or data folder")
    return read_page(path, vocabulary, hardware)


def _diff_table(args: argparse.Namespace) -> int:
    from mincards.bot.facts.hardware import load_hardware
    from mincards.bot.facts.knowledge import default_data_dir
    from mincards.bot.importing.table_diff import diff_tables, diff_text

    diff = diff_tables(_diff_side(Path(args.old)), _diff_side(Path(args.new)))
    if args.json:
        print(json.dumps(diff.json(), ensure_ascii=False))
        return 0
    hardware = load_hardware(default_data_dir() / "hardware.toml")
    print(diff_text(diff, {k: v.display for k, v in hardware.flavours.items()}))
    return 0


def _check_page(args: argparse.Namespace) -> int:
    """0: the page's table is the one in use; 1: it differs (the diff printed, and posted once
    per distinct change with --post-to); 2: an error (one line on stderr)."""
    from mincards.bot.facts.knowledge import load_knowledge
    from mincards.bot.importing.page_watch import WatchState, default_state_path
    from mincards.handlers.page_fetch import check_timeout, check_url, shown

    check_timeout(args.timeout)
    check_url(args.url)
    url = shown(args.url)  # as printed, remembered and posted: never with its password
    knowledge = load_knowledge()
    state = WatchState(Path(args.state) if args.state else default_state_path())
    try:
        return _check_held_page(args, state, knowledge, url)
    finally:
        state.close()


def _check_held_page(args: argparse.Namespace, state: WatchState, knowledge: Knowledge,
                     url: str) -> int:
    from mincards.bot.facts.table import MAX_FILE_BYTES
    from mincards.bot.importing.importer import import_table
    from mincards.bot.importing.page_watch import change_digest
    from mincards.bot.importing.table_diff import diff_tables, diff_text
    from mincards.handlers.page_fetch import fetch_page

    remembered = state.of(url)
    fetched = fetch_page(args.url, remembered, args.timeout, MAX_FILE_BYTES)
    if fetched.redirects:
        print(f"{url} redirected to {' -> '.join(fetched.redirects)}", file=sys.stderr)
    page = import_table(fetched.text, knowledge.vocabulary, knowledge.hardware.flavours)
    diff = diff_tables(knowledge.table, page)
    flavours = {k: v.display for k, v in knowledge.hardware.flavours.items()}
    text = diff_text(diff, flavours)
    digest = None if diff.empty else change_digest(diff)
    posted = False
    if digest is not None and args.post_to and digest not in remembered.posted:
        from mincards.handlers.page_post import post_summary, summary_text

        headline = (f"The ModelArts minimum-cards page ({page.source.date_text()}) differs from "
                    f"the table in use ({knowledge.table.source.date_text()})")
        post_summary(args.post_to, summary_text(url, headline, text))
        remembered.posted.append(digest)
        posted = True
    state.save()
    if args.json:
        print(json.dumps({"url": url, "status": "differs" if digest else "same",
                          "not_modified": fetched.not_modified, "change": digest,
                          "redirects": list(fetched.redirects),
                          "posted": posted, "diff": diff.json()}, ensure_ascii=False))
    else:
        print(text if digest else f"the page matches the table in use "
              f"({knowledge.table.source.date_text()}, {len(page.entries)} entries)")
        if posted:
            print(f"posted to {args.post_to}")
        elif digest and args.post_to:
            print(f"already posted to {args.post_to} (this change, {digest[:12]})")
    return 1 if digest else 0


def _db(args: argparse.Namespace) -> int:
    from mincards.handlers.database import database_url, upgrade_now
    from mincards.handlers.settings import secrets_from_files
    from mincards.handlers.token_cipher import KEYS_ENV, TokenCipher, new_key

    if args.action == "new-key":
        print(new_key())
        return 0
    keys = secrets_from_files(os.environ).get(KEYS_ENV) or os.environ.get(KEYS_ENV, "")
    also = None
    if keys.strip():  # stored tokens under an older key, or in the clear: encrypted anew
        from mincards.handlers.installs import reseal

        cipher = TokenCipher(keys)

        async def also(engine: Any) -> None:
            print(f"stored tokens re-encrypted: {await reseal(engine, cipher)} rows")

    before, after = upgrade_now(database_url(), also)
    print(f"database schema {'already at' if before == after else f'{before} ->'} "
          f"version {after}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from mincards.handlers.serve import serve

    return serve(args.mode)


def _probe(args: argparse.Namespace) -> int:
    from mincards.handlers.probe import probe, probe_port

    well, said = probe(probe_port(args.port), ready=args.ready)
    print(said, file=sys.stdout if well else sys.stderr)
    return 0 if well else 1


PLAYGROUND_PORT = 8850


def _playground(args: argparse.Namespace) -> int:
    from mincards.playground.web import run_playground

    if not 0 < args.port < 65536 or args.slack_latency < 0:
        print("mincards playground: --port is 1-65535 and --slack-latency at least 0",
              file=sys.stderr)
        return 2
    return run_playground(args.port, args.slack_latency, args.open)


def _data_dir_option(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--data-dir", metavar="DIR", default=default, help=DATA_DIR_HELP)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mincards",
        description="How many Ascend NPUs to fine-tune or train a model, from the ModelArts table.")
    _data_dir_option(parser, None)
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    # After the command's name too; SUPPRESS keeps one given before it from being overwritten.
    ask = sub.add_parser("ask", help="answer a question", epilog=ASK_EXAMPLES,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    ask.add_argument("question", nargs="+", help="the question; '-' reads one per line from stdin")
    shape = ask.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="print one JSON object per answer")
    shape.add_argument("--blocks", action="store_true",
                       help="print the Slack reply's Block Kit JSON (blocks and text), as "
                       "chat.postMessage would carry it: paste it into Block Kit Builder")
    shape.add_argument("--short", action="store_true",
                       help="print only the sentence that answers")
    shape.add_argument("--format", choices=("markdown", "csv"),
                       help="print the answer's rows as a table to paste")
    ask.add_argument("--flavour", action="append", metavar="NAME",
                     help="answer for this flavour only unless the question names one "
                     "(repeatable; over the config file's `flavours`)")
    ask.add_argument("--framework", action="append", metavar="NAME",
                     help="answer for this framework only unless the question names one "
                     "(repeatable; over the config file's `frameworks`)")
    ask.add_argument("--no-settings", action="store_true",
                     help="ignore the flags above and the config file: every flavour and "
                     "framework")
    ask.add_argument("--all", action="store_true",
                     help="what fits a budget: every entry of every model, not a line a model")
    ask.add_argument("--thread", action="store_true",
                     help="with '-': answer each line as a follow-up of the lines before it "
                     "(an empty line starts afresh)")
    ask.set_defaults(run=_ask)
    imp = sub.add_parser("import-table", help="take a version of the page into the data folder",
                         description="Read the page (its text as copied, its markdown export or "
                         "its saved HTML) and replace the data folder's table with it, adding "
                         "catalogue entries for new models. All or nothing.")
    imp.add_argument("file", help="the page: text, markdown or HTML")
    imp.add_argument("--check", action="store_true",
                     help="only check that the folder's table.csv is what FILE imports to")
    imp.add_argument("--allow-older", action="store_true",
                     help="accept a page dated before the data's table (going back a version)")
    imp.add_argument("--allow-removals", action="store_true",
                     help="accept a page that drops models, entries or columns the data has")
    imp.add_argument("--date", type=_date, metavar="YYYY-MM-DD",
                     help="the page's date, when it shows none (the markdown export)")
    imp.set_defaults(run=_import_table)
    diff = sub.add_parser("diff-table", help="what changed between two versions of the table")
    diff.add_argument("old", help="a page file (any format), a data folder or a table.csv")
    diff.add_argument("new", help="the same, for the newer version")
    diff.add_argument("--json", action="store_true", help="print one JSON object")
    diff.set_defaults(run=_diff_table)
    check = sub.add_parser(
        "check-page", help="compare the live page with the table in use",
        description="Fetch the page (a conditional GET, bounded in time and size), read it as "
        "import-table does and compare it with the table in use. Exit 0: the same; 1: it "
        "differs (the diff is printed); 2: an error.")
    check.add_argument("url", help="the page's URL (http or https)")
    check.add_argument("--post-to", metavar="CHANNEL",
                       help="post the summary to this Slack channel, once per distinct change "
                       "(needs SLACK_BOT_TOKEN; SLACK_API_URL optional)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument("--state", metavar="FILE",
                       help="where to remember validators and what was posted (default: "
                       "$XDG_STATE_HOME/mincards/check-page.json)")
    check.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                       help="give up on the server after this long (default 30)")
    check.set_defaults(run=_check_page)
    est = sub.add_parser(
        "estimate", help="estimate cards for a model the table lacks (not the table's numbers)",
        description="Estimate, for each framework, flavour, strategy and length the table covers, "
        "the fewest cards (or DIE) that hold the model's training state, from its shape: the "
        "known-models data, or its config.json. Calibrated on the table in use; the figures are "
        "estimates, never the table's.")
    est.add_argument("model", nargs="*", help="a model's name or Hugging Face id")
    est.add_argument("--config", metavar="FILE", help="the model's config.json")
    est.add_argument("--json", action="store_true", help="print one JSON object")
    est.add_argument("--validate", action="store_true",
                     help="hold out each of the table's models in turn and print the error")
    est.add_argument("--calibrate", action="store_true",
                     help="fit to the table in use and write estimator.toml to the data folder")
    est.set_defaults(run=_estimate)
    db = sub.add_parser("db", help="the Slack app's database (DATABASE_URL, else SQLite)")
    db.add_argument("action", choices=("upgrade", "new-key"),
                    help="upgrade: apply missing migrations (and, with SLACK_TOKEN_KEYS, "
                    "encrypt stored tokens with its first key); new-key: print a new key for "
                    "SLACK_TOKEN_KEYS")
    db.set_defaults(run=_db)
    serve = sub.add_parser("serve", help="run the Slack bot (settings from the environment/.env)")
    serve.add_argument("--mode", choices=("auto", "http", "socket"), default="auto",
                       help="auto: Socket Mode when SLACK_APP_TOKEN is set, else HTTP")
    serve.set_defaults(run=_serve)
    probe = sub.add_parser("probe", help="ask a running bot's /healthz (--ready: /readyz); "
                           "exit 0 when it answers 200, for a container's health check")
    probe.add_argument("--ready", action="store_true",
                       help="ask /readyz: the database, Redis and Slack connection as well")
    probe.add_argument("--port", type=int, default=None,
                       help="the probes' port (default HEALTH_PORT, else PORT, else 3000)")
    probe.set_defaults(run=_probe)
    play = sub.add_parser("playground", help="try the Slack app without a workspace: the real "
                          "bot against a local Slack stand-in, and a page that plays Slack")
    play.add_argument("--port", type=int, default=PLAYGROUND_PORT,
                      help=f"the page's port on 127.0.0.1 (default {PLAYGROUND_PORT})")
    play.add_argument("--slack-latency", type=float, default=0.0, metavar="SECONDS",
                      help="make every Web API call take this long, as real Slack does")
    play.add_argument("--open", action="store_true", help="open the page in a browser")
    play.set_defaults(run=_playground)
    for command in (ask, imp, diff, check, est, db, serve, probe, play):
        _data_dir_option(command, argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.data_dir is not None:
            from mincards.bot.facts.knowledge import use_data_dir

            use_data_dir(Path(args.data_dir))
        return int(args.run(args))
    except MincardsError as exc:
        print(f"mincards: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
