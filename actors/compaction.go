package actors

// Conversation compaction. An agent that lives for days would otherwise
// send its whole history every round until the model refuses it
// (context_length_exceeded ends the turn, with no continuation), and keep
// it all in memory and in every snapshot. Before a model round, when the
// conversation's estimated size passes Compaction.TriggerTokens, its
// oldest part leaves the model's view: the newest items that fit in
// KeepTokens stay, never cut between tool calls and their results; the
// running turn's message stays in view even when older (a long turn keeps
// its assignment). A digest of
// what left, one line an item with its origin, joins the summary of
// earlier compactions (bounded by SummaryChars, oldest lines first out).
// The summary is the first item the model sees: evidence from the runtime,
// never instructions. Each compaction is one conversation_compacted
// event, so replay reproduces it whatever the configuration is then; the
// journal keeps every original event.
