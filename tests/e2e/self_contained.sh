#!/usr/bin/env bash
# End-to-end: the repository stands on its own. No tracked file refers to the research notes, style guide
# or architecture notes kept outside it (the sibling "shared" folder; the project's own architecture page
# is models/ARCHITECTURE.md), and every source a file cites as
# "SOURCES.md" followed by one or more bracketed IDs is an entry ("### [ID] ...") of models/SOURCES.md, so
# citations cannot dangle. Offending lines are printed as FILE:LINE. The gpucap binary is not used.
. "$(dirname "$0")/lib.sh"
cd "$SRC" || exit 1

# The tracked files: git's list in a checkout, else every file but version control and build trees.
if [ "$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$SRC" && pwd -P)" ]; then
	git -C "$SRC" ls-files -z >"$TMP/files"
else
	find . -type f -not -path '*/.git/*' -not -path '*/build*' -printf '%P\0' >"$TMP/files"
fi
check "there are files to check" test -s "$TMP/files"

# Split so that this script does not match itself.
for pattern in "../sha""red" "sha""red/FA""CTS" "FA""CTS.md" "STY""LE.md"; do
	hits=$(xargs -0 grep -nIF -e "$pattern" -- <"$TMP/files")
	check "no tracked file refers to $pattern:
$hits" test -z "$hits"
done
# The project's own architecture page is models/ARCHITECTURE.md: named with its folder, or by a file beside it.
hits=$(grep -zv '^models/' "$TMP/files" | xargs -0 grep -nIP -e '(?<!models/)ARCHITEC''TURE\.md' --)
check "no tracked file refers to an architecture page but models/ARCHITECTURE.md:
$hits" test -z "$hits"

# The IDs models/SOURCES.md defines, then every cited one that it does not: a citation is the file name
# followed by one or more [id], separated by commas, "and", blanks or comment leaders, across line breaks.
SOURCES=$SRC/models/SOURCES.md
check "models/SOURCES.md exists" test -f "$SOURCES"
sed -n 's/^### \[\([a-z0-9-]*\)\].*/\1/p' "$SOURCES" | sort >"$TMP/ids"
check "models/SOURCES.md has entries" test -s "$TMP/ids"
dupes=$(uniq -d "$TMP/ids")
check "models/SOURCES.md defines each ID once: $dupes" test -z "$dupes"
xargs -0 perl -ne '
	BEGIN { open(my $f, "<", shift @ARGV) or die; while (<$f>) { chomp; $id{$_} = 1 } }
	$text .= $_;
	if (eof) {
		my $sep = qr{(?:\s|,|\band\b|\*|#|//|`)*};
		while ($text =~ /SOURCES\.md$sep((?:\[[^\]\n]*\]$sep)+)/g) {
			my ($list, $at) = ($1, $-[1]);
			while ($list =~ /\[([^\]\n]*)\]/g) {
				next if $id{$1};
				my $line = 1 + (substr($text, 0, $at + $-[0]) =~ tr/\n//);
				print "$ARGV:$line: [$1]\n";
			}
		}
		$text = "";
	}' "$TMP/ids" <"$TMP/files" >"$TMP/dangling"
check "every ID cited after SOURCES.md is an entry of models/SOURCES.md:
$(cat "$TMP/dangling")" test ! -s "$TMP/dangling"
cites=$(xargs -0 grep -cI "SOURCES\.md \[" -- <"$TMP/files" | awk -F: '{n += $NF} END {print n + 0}')
check "the files cite models/SOURCES.md by ID ($cites lines)" test "$cites" -gt 0

finish
