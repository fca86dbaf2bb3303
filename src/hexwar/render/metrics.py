"""Text widths for placing and fitting text without a font engine (standard library only).

Both renderers that matter here — Chromium and librsvg — draw ``sans-serif`` with DejaVu
Sans under fontconfig on Linux, so the widths below are DejaVu Sans's advance widths
(thousandths of an em, regular and bold, read from the font's ``hmtx`` table) for ASCII,
Cyrillic and a few typographic marks; any other character counts as a full em. Text
sized with :func:`fitted_size` therefore fits its box in both.

>>> round(text_width("7-3", 10.0), 2), round(text_width("7-3", 10.0, bold=True), 2)
(16.33, 18.07)
>>> fitted_size("Romanian 20th Infantry Division", 10.0, 40.0) < 10.0
True
"""

from __future__ import annotations

from typing import Final

__all__ = ["fitted_size", "text_width"]

_CHARS: Final = (
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ["
    "\\]^_`abcdefghijklmnopqrstuvwxyz{|}~«·»×ЁІАБВГДЕЖЗИЙКЛМНОПРСТ"
    "УФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюяёі–—’…№"
)
_REGULAR_EM: Final = """
318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636
636 636 636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656
557 863 748 787 603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613
635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818
592 592 525 636 337 636 838 612 318 612 838 632 295 684 686 686 610 781 632 1077 641 748
748 710 752 863 752 787 752 603 698 611 609 861 685 776 686 1069 1094 833 882 686 698
1080 695 613 617 589 525 691 615 901 532 650 650 604 639 754 654 612 654 635 550 583 592
855 592 681 591 915 942 707 790 589 549 842 602 615 278 500 1000 318 1000 1040
"""
_BOLD_EM: Final = """
348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696
696 696 696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775
637 995 837 850 733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675
716 593 716 678 435 716 712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924
645 652 582 712 365 712 838 646 380 646 838 683 372 774 762 762 637 891 683 1224 710 837
837 817 831 995 837 850 837 733 734 682 771 992 771 928 808 1235 1326 939 1036 762 734
1174 770 675 698 633 522 808 678 995 581 701 701 679 732 817 691 687 691 716 593 580 652
992 645 741 687 1062 1105 751 904 632 593 972 642 678 343 500 1000 380 1000 1203
"""
_REGULAR: Final = dict(zip(_CHARS, map(int, _REGULAR_EM.split()), strict=True))
_BOLD: Final = dict(zip(_CHARS, map(int, _BOLD_EM.split()), strict=True))
_UNKNOWN: Final = 1000


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The advance width of ``text`` at font size ``size`` (DejaVu Sans)."""
    table = _BOLD if bold else _REGULAR
    return sum(table.get(c, _UNKNOWN) for c in text) * size / 1000.0


def fitted_size(text: str, size: float, fit: float, *, bold: bool = False) -> float:
    """``size``, or smaller so that ``text`` is at most ``fit`` wide."""
    width = text_width(text, size, bold=bold)
    return size if width <= fit or width == 0 else size * fit / width
