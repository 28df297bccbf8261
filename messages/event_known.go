package messages

// Supports reports whether this build knows event type t at schema version v.
// Decoders of stored events use it to tell "written by a newer build" from
// corruption without re-validating the payload.
func (t EventType) Supports(v uint32) bool {
	newest, ok := eventVersions[t]
	return ok && v >= 1 && v <= newest
}
