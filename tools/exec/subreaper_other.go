//go:build !linux

package exec

// BecomeSubreaper is a no-op off Linux: escaped descendants are found by
// their token only.
func BecomeSubreaper() error { return nil }

func isSubreaper() bool { return false }
