package remotepb

// Error makes a refusal a Go error: its message, and its hint in
// parentheses, as control.Error reads.
func (x *Error) Error() string {
	if x.GetHint() == "" {
		return x.GetMessage()
	}
	return x.GetMessage() + " (" + x.GetHint() + ")"
}
