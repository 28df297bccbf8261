package main

import (
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// forCLI rewrites an API error for the user of command: the API's hints
// name HTTP routes and JSON fields, a CLI user needs the command and the
// flag. Errors it does not know keep their words, but a hint speaking
// HTTP or JSON becomes a pointer to the command's help.
func forCLI(command string, ae *control.Error) (message, hint string) {
	message, hint = ae.Message, ae.Hint
	switch {
	case strings.Contains(message, "has no active trigger"):
		hint = "create one with holon-actors agents trigger (without --revoke)"
	case strings.HasPrefix(message, "message_id is "):
		message = "--message-id" + strings.TrimPrefix(message, "message_id")
		hint = fmt.Sprintf("give a --message-id of at most %d bytes, e.g. a UUID", messages.MessageIDMaxLen)
	case strings.HasPrefix(message, "token_budget"):
		message = "--tokens" + strings.TrimPrefix(message, "token_budget")
		hint = "give --tokens N, a whole number of tokens (0: unlimited)"
	case ae.Kind == control.KindTooLarge:
		hint = "send a shorter prompt, or put the material in a file the agent reads and name the file"
	case ae.Kind == control.KindBackpressure && strings.Contains(message, "event stream limit"):
		hint = "retry in a few seconds, or end another holon-actors tail --follow; holon-actors tail without --follow still answers"
	case speaksHTTP(hint):
		hint = fmt.Sprintf("see %s --help", strings.TrimSpace("holon-actors "+commandPath(command)))
	}
	return message, hint
}

// speaksHTTP reports whether a hint is worded for an HTTP client.
func speaksHTTP(hint string) bool {
	for _, s := range []string{"GET /", "POST /", "DELETE /", "{\"", "JSON", "Accept:", "openapi"} {
		if strings.Contains(hint, s) {
			return true
		}
	}
	return false
}

// commandPath is command without its arguments ("agents trigger <id>" →
// "agents trigger").
func commandPath(command string) string {
	var out []string
	for _, f := range strings.Fields(command) {
		if strings.HasPrefix(f, "<") {
			break
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}
