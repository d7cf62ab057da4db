"""The `mincards` command: ask, import-table, serve. Slack is imported only by `serve`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.errors import MincardsError


def _ask(args: argparse.Namespace) -> int:
    from bot.engine import Engine
    from bot.render_json import render_json
    from bot.render_text import render_text

    engine = Engine()

    def answer(question: str) -> str:
        result = engine.ask(question)
        if args.json:
            return json.dumps(render_json(engine.knowledge, result), ensure_ascii=False)
        return render_text(engine.knowledge, result)

    if args.question == ["-"]:
        # One answer per input line, in order, flushed so a pipe sees each as it comes.
        for line in sys.stdin:
            print(answer(line.rstrip("\r\n")), flush=True)
            if not args.json:
                print(flush=True)
        return 0
    print(answer(" ".join(args.question)))
    return 0


def _import_table(args: argparse.Namespace) -> int:
    from bot.importer import import_table
    from bot.knowledge import default_data_dir
    from bot.table import dump_table

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MincardsError(f"cannot read {args.file}: {exc}") from None
    table = import_table(text)
    rendered = dump_table(table)
    output = Path(args.output) if args.output else default_data_dir() / "table.csv"
    if args.check:
        current = output.read_text(encoding="utf-8") if output.exists() else ""
        if current != rendered:
            print(f"{output} differs from what {args.file} imports to", file=sys.stderr)
            return 1
        print(f"{output} is up to date ({len(table.entries)} entries)")
        return 0
    output.write_text(rendered, encoding="utf-8")
    print(f"wrote {output}: {len(table.models())} models, {len(table.entries)} entries "
          f"(source dated {table.source.date.isoformat()})")
    catalogue = output.parent / "models.toml"
    return _update_catalogue(output.parent, table.models()) if catalogue.exists() else 0


def _update_catalogue(data_dir: Path, models: tuple[str, ...]) -> int:
    """Give new table models a catalogue entry from their names; then check all the data."""
    from bot.catalogue import load_catalogue
    from bot.catalogue_stub import stubs
    from bot.knowledge import load_knowledge
    from bot.vocabulary import load_vocabulary

    path = data_dir / "models.toml"
    written, unknown = stubs(load_vocabulary(data_dir / "vocabulary.toml"),
                             load_catalogue(path).models, models)
    if written:
        with path.open("a", encoding="utf-8") as out:
            out.write("".join("\n" + section for section in written))
        print(f"added {len(written)} new model(s) to {path}; review their display names:")
        for section in written:
            print("  " + section.splitlines()[0])
    if unknown:
        print(f"cannot tell the family of {unknown}: add each to {path} by hand (and a new "
              f"family to vocabulary.toml)", file=sys.stderr)
        return 1
    try:
        load_knowledge(data_dir)
    except MincardsError as exc:
        print(f"the data does not load as a whole: {exc}", file=sys.stderr)
        return 1
    return 0


def _serve(args: argparse.Namespace) -> int:
    from handlers.serve import serve

    return serve(args.mode)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mincards",
        description="How many Ascend NPUs to fine-tune or train a model, from the ModelArts table.")
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="answer a question")
    ask.add_argument("question", nargs="+", help="the question; '-' reads one per line from stdin")
    ask.add_argument("--json", action="store_true", help="print one JSON object per answer")
    ask.set_defaults(run=_ask)
    imp = sub.add_parser("import-table", help="turn the doc's table text into data/table.csv")
    imp.add_argument("file", help="the page's tab-separated table text")
    imp.add_argument("-o", "--output", help="where to write (default: data/table.csv)")
    imp.add_argument("--check", action="store_true",
                     help="only check that the output is what FILE imports to")
    imp.set_defaults(run=_import_table)
    serve = sub.add_parser("serve", help="run the Slack bot (settings from the environment/.env)")
    serve.add_argument("--mode", choices=("auto", "http", "socket"), default="auto",
                       help="auto: Socket Mode when SLACK_APP_TOKEN is set, else HTTP")
    serve.set_defaults(run=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
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
