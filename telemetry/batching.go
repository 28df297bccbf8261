package telemetry

import (
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The span batches sent to the OTLP receiver. A busy runtime ends
// thousands of spans a second (four a turn); the SDK's defaults (a queue
// of 2048, batches of 512) make an export request for every 128 turns, and
// spans ended while the queue is full are dropped. Larger batches make
// fewer requests for the same spans, and the larger queue holds the spans
// of a burst of 2,000 turns.
const (
	spanQueueSize = 8192
	spanBatchSize = 2048
	envQueueSize  = "OTEL_BSP_MAX_QUEUE_SIZE"
	envBatchSize  = "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"
)

// batchOptions sizes the batch span processor, unless the standard
// OTEL_BSP_* variables do: then the SDK reads them and the operator's
// sizes are kept as given.
func batchOptions(c Config) []sdktrace.BatchSpanProcessorOption {
	if c.getenv(envQueueSize) != "" || c.getenv(envBatchSize) != "" {
		return nil
	}
	return []sdktrace.BatchSpanProcessorOption{sdktrace.WithMaxQueueSize(spanQueueSize), sdktrace.WithMaxExportBatchSize(spanBatchSize)}
}
