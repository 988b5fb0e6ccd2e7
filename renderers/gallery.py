"""Every game's boards in one folder, to look at before a change to a renderer lands.

    python -m renderers.gallery DIR [game ...] [--vision protanopia|deuteranopia|tritanopia|all]

For each game (all by default) it draws the start, the middle and the end of a seeded
computer game for every player count and option that changes the picture
(:data:`renderers.samples.SETUPS`): the public board and every seat's private picture, at
full size (``DIR/<game>/<position>-<view>.png``) and scaled to 400 px wide as a phone shows it
(``DIR/<game>/400/...``).  ``DIR/<game>-sheet.png`` is the game's contact sheet: every 400 px
picture in a grid, labelled.  ``DIR/report.txt`` lists each picture's size, its encoding and
any text that had to be cut (there should be none).

With ``--vision``, each picture is also drawn as a person with that colour-vision deficiency
sees it (:mod:`renderers.vision`, Machado 2009): ``DIR/<game>/<deficiency>/<position>-<view>.png``
at full size, and ``DIR/<game>-<deficiency>-sheet.png``, the contact sheet as they see it.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image, ImageDraw

import engines
from renderers import encoding, typeset, vision
from renderers.samples import SETUPS, positions

PHONE = 400
SHEET_COLUMNS = 4
# zlib's level for the pictures the gallery makes itself (the boards are written as rendered):
# they are looked at on this machine, not sent, and level 1 writes them several times faster
# than Pillow's default (6), the same pixels in somewhat larger files.
FOLDER_LEVEL = 1


def phone(image: Image.Image) -> Image.Image:
    """The picture as Discord shows it on a phone: 400 px wide."""
    return image.resize((PHONE, round(image.height * PHONE / image.width)), Image.Resampling.LANCZOS)


def contact_sheet(items: list[tuple[str, Image.Image]]) -> Image.Image:
    gap, label_h = 16, 30
    rows = [items[i : i + SHEET_COLUMNS] for i in range(0, len(items), SHEET_COLUMNS)]
    heights = [max(img.height for _, img in row) + label_h + gap for row in rows]
    sheet = Image.new("RGB", (SHEET_COLUMNS * (PHONE + gap) + gap, sum(heights) + gap), (60, 60, 60))
    draw = ImageDraw.Draw(sheet)
    y = gap
    for row, h in zip(rows, heights, strict=True):
        for k, (label, img) in enumerate(row):
            x = gap + k * (PHONE + gap)
            draw.text((x, y + 4), label, font=typeset.font(17, True), fill=(240, 240, 240))
            sheet.paste(img, (x, y + label_h))
        y += h
    return sheet


def gallery(
    folder: Path,
    game: str,
    report: list[str],
    language: str | None = None,
    deficiencies: tuple[str, ...] = (),
) -> int:
    renderer = engines.get(game).load_renderer()
    if renderer is None:
        raise ValueError(f"{game} has no renderer, so it has no boards to show")
    out = folder / game
    (out / "400").mkdir(parents=True, exist_ok=True)
    for deficiency in deficiencies:
        (out / deficiency).mkdir(exist_ok=True)
    thumbs: list[tuple[str, Image.Image]] = []
    seen: dict[str, list[tuple[str, Image.Image]]] = {d: [] for d in deficiencies}
    count = 0
    for pos in positions(game):
        for seat in (None, *range(pos.players)):
            tag = "public" if seat is None else f"p{seat + 1}"
            name = f"{pos.label}-{tag}"
            with typeset.fit_log() as log:
                png = renderer.render(
                    pos.view(seat),
                    names=pos.names,
                    last_action=pos.last_action_in(language),
                    language=language,
                )
            enc = encoding.LAST_ENCODING
            image = Image.open(io.BytesIO(png)).convert("RGB")
            (out / f"{name}.png").write_bytes(png)
            small = phone(image)
            small.save(out / "400" / f"{name}.png", compress_level=FOLDER_LEVEL)
            thumbs.append((name, small))
            for deficiency in deficiencies:
                vision.simulate_image(image, deficiency).save(
                    out / deficiency / f"{name}.png", compress_level=FOLDER_LEVEL
                )
                seen[deficiency].append((name, vision.simulate_image(small, deficiency)))
            cut = [f.text for f in log if f.cut]
            report.append(
                f"{game}/{name}.png {image.width}x{image.height} {len(png) / 1024:.0f} KB "
                f"{'game palette' if enc.known else 'palette' if enc.palette else 'RGB'} zlib {enc.level} "
                f"(error {enc.mean_error:.2f}, far {enc.far:.4f})" + (f" CUT: {cut}" if cut else "")
            )
            count += 1
    contact_sheet(thumbs).save(folder / f"{game}-sheet.png", compress_level=FOLDER_LEVEL)
    for deficiency, items in seen.items():
        contact_sheet(items).save(folder / f"{game}-{deficiency}-sheet.png", compress_level=FOLDER_LEVEL)
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m renderers.gallery", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="where to write the pictures")
    parser.add_argument("games", nargs="*", default=list(SETUPS), help="games (default: all)")
    parser.add_argument(
        "--language", default=None, help="draw the words in this language (es); default English"
    )
    parser.add_argument(
        "--vision",
        choices=(*vision.DEFICIENCIES, "all"),
        default=None,
        help="also draw each board as seen with this colour-vision deficiency (all: the three)",
    )
    args = parser.parse_args(argv)
    deficiencies = vision.DEFICIENCIES if args.vision == "all" else (args.vision,) if args.vision else ()
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    report: list[str] = []
    for game in args.games:
        count = gallery(folder, game, report, args.language, deficiencies)
        print(f"{game}: {count} pictures, sheet {folder / (game + '-sheet.png')}")
        for deficiency in deficiencies:
            print(f"{game} as seen with {deficiency}: {folder / f'{game}-{deficiency}-sheet.png'}")
    (folder / "report.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    cuts = [line for line in report if " CUT: " in line]
    print(f"report: {folder / 'report.txt'}; {len(cuts)} pictures with cut text")
    return 1 if cuts else 0


if __name__ == "__main__":
    sys.exit(main())
