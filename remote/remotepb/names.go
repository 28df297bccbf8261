package remotepb

// GatewayName is the name of the gateway actor on every node: a client
// sends its requests to actor.NewPID(<node address>, GatewayName).
const GatewayName = "holon-gateway"
