package patch

// Grammar is the Lark grammar of ApplyPatch's freeform form: one or more
// file diffs as git diff prints them, or plain unified diffs.
const Grammar = `start: file_diff+

file_diff: git_header? extended_line* (file_paths hunk*)?

git_header: "diff --git " PATH_TEXT NL
extended_line: EXTENDED NL
file_paths: "--- " PATH_TEXT NL "+++ " PATH_TEXT NL
hunk: "@@ -" RANGE " +" RANGE " @@" REST? NL hunk_line+
hunk_line: CONTEXT_LINE NL | ADDED_LINE NL | REMOVED_LINE NL | NO_NEWLINE NL

EXTENDED: /(old mode|new mode|deleted file mode|new file mode|similarity index|dissimilarity index|rename from|rename to|copy from|copy to|index) [^\n]*/
PATH_TEXT: /[^\n]+/
RANGE: /[0-9]+(,[0-9]+)?/
REST: /[^\n]+/
CONTEXT_LINE: / [^\n]*/
ADDED_LINE: /\+[^\n]*/
REMOVED_LINE: /-[^\n]*/
NO_NEWLINE: "\\ No newline at end of file"
NL: "\n"
`
