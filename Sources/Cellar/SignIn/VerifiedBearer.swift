/// A request's bearer token as ``SignInMiddleware`` accepted it: the token, its actor with its
/// groups, and the configuration it was checked against, with that configuration's generation.
/// Carried in the request (`Request.verifiedCredentials`) to the checks after the middleware in
/// the same request (a write's permission), which read it here instead of reading, verifying and
/// looking up the token again, while no reload has replaced that configuration.
final class VerifiedBearer: Sendable {
    let token: BearerToken
    let actor: SignedInActor
    let configuration: AccessConfiguration
    /// ``AccessControl/generation`` when `configuration` was read.
    let generation: UInt64

    init(token: BearerToken, actor: SignedInActor, configuration: AccessConfiguration, generation: UInt64) {
        self.token = token
        self.actor = actor
        self.configuration = configuration
        self.generation = generation
    }
}
