package agentstate

import (
	"slices"

	"github.com/holon-actors/holon-actors/providers/llm"
)

// An agent that lives for weeks keeps a conversation of thousands of
// items (up to the compaction trigger). Two things were done to all of
// it at every model request: its size was estimated item by item
// (Compaction), and it was copied whole into the request behind the
// summary item. Both grew with the conversation, and the copies (a few
// hundred KB a round) were most of a long-lived agent's garbage. Now the
// estimate is kept as the conversation changes, and a request shows the
// state's own array, which keeps a free slot in front for the summary.
//
// Sharing is safe because the conversation only grows at its end, past
// any request's view (views are capped at their length, so a reader that
// appends copies), or is rebuilt in a new array (compaction, a full
// array growing). The one change in place, a result inserted before the
// end (insertItem), copies the array first once a request has seen it.

// convCache is what State keeps beside Conversation; none of it is in
// snapshots (a restored state rebuilds it on first use).
type convCache struct {
	// base is the array Conversation lives in, one slot longer at the
	// front (base[0], the summary's); valid while Conversation is
	// base[1:] (hasSlot).
	base []llm.Item
	// slotSummary and slotCompacted are what base[0] was built from.
	slotSummary   string
	slotCompacted uint64
	slotSet       bool
	// shared: a request holds a view of base.
	shared bool
	// tokens is the estimate of Conversation while it has tokensLen items
	// starting at tokensAt (tokensValid).
	tokens    int
	tokensLen int
	tokensAt  *llm.Item
}

// conversationTokens is the estimate of the conversation's tokens,
// without the summary.
func (s *State) conversationTokens() int {
	if s.tokensValid() {
		return s.conv.tokens
	}
	return estimateTokens(s.Conversation)
}

func (s *State) tokensValid() bool {
	return s.conv.tokensLen == len(s.Conversation) && s.conv.tokensAt == firstItem(s.Conversation)
}

func firstItem(conv []llm.Item) *llm.Item {
	if len(conv) == 0 {
		return nil
	}
	return &conv[0]
}

// appendItem adds it at the end of the conversation. A full array with
// the summary's slot is grown with its slot (rebuildBase), not by append,
// which would leave the slot behind and the next request to copy again.
func (s *State) appendItem(it llm.Item) {
	valid := s.tokensValid()
	if len(s.Conversation) == cap(s.Conversation) && s.hasSlot() {
		s.rebuildBase()
	}
	s.Conversation = append(s.Conversation, it)
	s.noteAdded(valid, it)
}

// insertItem puts a tool result after the results of the round that
// made its call (insertResult); it copies the array first when a request
// may be looking at it and the result does not go at the end.
func (s *State) insertItem(it llm.Item) {
	valid := s.tokensValid()
	if s.conv.shared && !insertsAtEnd(s.Conversation, it) {
		s.Conversation = slices.Clone(s.Conversation)
		s.dropBase()
	}
	s.Conversation = insertResult(s.Conversation, it)
	s.noteAdded(valid, it)
}

func (s *State) noteAdded(valid bool, it llm.Item) {
	if !valid {
		s.recountTokens()
		return
	}
	s.conv.tokens += estimateItem(it)
	s.conv.tokensLen, s.conv.tokensAt = len(s.Conversation), firstItem(s.Conversation)
}

// recountTokens estimates the whole conversation anew.
func (s *State) recountTokens() {
	s.conv.tokens = estimateTokens(s.Conversation)
	s.conv.tokensLen, s.conv.tokensAt = len(s.Conversation), firstItem(s.Conversation)
}

// insertsAtEnd reports whether insertResult puts res at conv's end.
func insertsAtEnd(conv []llm.Item, res llm.Item) bool {
	return insertIndex(conv, res) == len(conv)
}

// requestConversation is the conversation a model request shows: the
// summary first when there is one, then every item. It is a view of the
// state's array, capped at its length; the caller must not change its
// items.
func (s *State) requestConversation() []llm.Item {
	if s.ContextSummary == "" { // no summary item (SummaryItem)
		s.conv.shared = true
		return slices.Clip(s.Conversation)
	}
	if !s.hasSlot() || (s.conv.shared && !s.slotHolds()) {
		s.rebuildBase()
	}
	if !s.slotHolds() { // the summary's item is formatted only when it changed
		s.conv.base[0], _ = s.SummaryItem()
		s.conv.slotSummary, s.conv.slotCompacted, s.conv.slotSet = s.ContextSummary, s.CompactedItems, true
	}
	s.conv.shared = true
	n := len(s.Conversation) + 1
	return s.conv.base[:n:n]
}

// hasSlot reports whether Conversation is base[1:].
func (s *State) hasSlot() bool {
	b := s.conv.base
	if len(b) == 0 || cap(b) != cap(s.Conversation)+1 {
		return false
	}
	if len(s.Conversation) == 0 {
		return cap(s.Conversation) > 0 && &b[:2][1] == &s.Conversation[:1][0]
	}
	return &b[:2][1] == &s.Conversation[0]
}

// slotHolds reports whether base[0] is the current summary's item.
func (s *State) slotHolds() bool {
	return s.conv.slotSet && s.conv.slotSummary == s.ContextSummary && s.conv.slotCompacted == s.CompactedItems
}

// dropBase forgets the array a request showed once the conversation has
// moved out of it, so the agent does not keep it alive until its next
// request; the new array is no request's yet.
func (s *State) dropBase() {
	s.conv.base, s.conv.slotSet, s.conv.shared = nil, false, false
}

// rebuildBase moves the conversation into a new array with the summary's
// slot in front and a quarter more room to grow (as append grows a large
// slice), so the copies stay a few per item however long the agent lives.
func (s *State) rebuildBase() {
	n := len(s.Conversation)
	base := make([]llm.Item, n+1, n+1+n/4+16)
	copy(base[1:], s.Conversation)
	valid := s.tokensValid()
	s.conv.base, s.Conversation = base, base[1:n+1]
	s.conv.slotSet, s.conv.shared = false, false
	if valid {
		s.conv.tokensAt = firstItem(s.Conversation)
	}
}
