package telemetry

// Attribute names and values of the OpenTelemetry semantic conventions
// for generative AI (https://opentelemetry.io/docs/specs/semconv/gen-ai/,
// gen-ai-spans.md and gen-ai-agent-spans.md; Development stability). The
// semconv packages of the SDK version we use predate some of them
// (gen_ai.provider.name, the cache token counts), so the exact strings
// are kept here, in one place.
const (
	attrOperation       = "gen_ai.operation.name"
	attrProvider        = "gen_ai.provider.name"
	attrAgentID         = "gen_ai.agent.id"
	attrAgentName       = "gen_ai.agent.name"
	attrConversationID  = "gen_ai.conversation.id"
	attrRequestModel    = "gen_ai.request.model"
	attrResponseModel   = "gen_ai.response.model"
	attrResponseID      = "gen_ai.response.id"
	attrFinishReasons   = "gen_ai.response.finish_reasons"
	attrInputTokens     = "gen_ai.usage.input_tokens"
	attrOutputTokens    = "gen_ai.usage.output_tokens"
	attrCacheReadTokens = "gen_ai.usage.cache_read.input_tokens"
	attrCacheWriteTkns  = "gen_ai.usage.cache_creation.input_tokens"
	attrToolName        = "gen_ai.tool.name"
	attrToolCallID      = "gen_ai.tool.call.id"
	attrToolType        = "gen_ai.tool.type"
	attrToolArguments   = "gen_ai.tool.call.arguments" // opt-in content
	attrToolResult      = "gen_ai.tool.call.result"    // opt-in content
	attrInputMessages   = "gen_ai.input.messages"      // opt-in content
	attrOutputMessages  = "gen_ai.output.messages"     // opt-in content
	attrErrorType       = "error.type"

	opInvokeAgent = "invoke_agent"
	opChat        = "chat"
	opExecuteTool = "execute_tool"
)

// The runtime's own attributes, outside the GenAI namespace.
const (
	attrTurnID      = "holon.turn.id"
	attrTurnIndex   = "holon.turn.index"
	attrMessageID   = "holon.message.id"
	attrAgentKind   = "holon.agent.kind"
	attrClosure     = "holon.turn.closure"
	attrTerminal    = "holon.turn.terminal"
	attrRound       = "holon.round"
	attrToolStatus  = "holon.tool.status"
	attrResumed     = "holon.turn.resumed"
	attrAttempts    = "holon.provider.attempts"
	attrFallback    = "holon.provider.fallback"
	attrLinkKind    = "holon.link"
	attrChildAgent  = "holon.child_agent.id"
	attrFailureCode = "holon.failure.code"
)
