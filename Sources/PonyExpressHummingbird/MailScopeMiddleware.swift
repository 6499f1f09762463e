// Empty without the Hummingbird trait: an app's `traits: []` and `--disable-default-traits` leave Hummingbird out.
#if Hummingbird
    public import Hummingbird
    public import PonyExpress

    /// Serves each request in a mail scope named by its method and route, so that a registration a handler forgets to
    /// remove is reported as `outlivedScope` after one request, at the handler's line (see `MailScope`).
    ///
    /// ```swift
    /// let router = Router()
    /// router.add(middleware: MailScopeMiddleware(office))
    /// router.get("/rooms/:room/events") { request, context in … }  // scope "GET /rooms/{room}/events"
    /// ```
    ///
    /// The scope is named by the route the router matched (`context.endpointPath`), never by the request's path, so all
    /// requests to a route count as one kind of work: `GET /rooms/{room}/events`, not `GET /rooms/42/events`. A request
    /// that matches no route is served outside any scope. The scope ends when the handler returns its response; a body
    /// the response streams afterwards runs outside it, so a registration made while streaming belongs to no scope.
    /// A registration meant to outlive the request (a subscription handed to a long-lived owner) says so with
    /// `RegistrationOptions.outlivesScope`.
    ///
    /// Add it before the routes it covers: Hummingbird applies a router's middleware to the routes added after it.
    public struct MailScopeMiddleware<Context: RequestContext>: RouterMiddleware {
        /// The post office whose `scope(_:grace:_:)` opens each request's scope.
        /// Registrations made in other post offices while serving belong to the scope as well: a scope is the task's.
        public let office: PostOffice
        /// How long a request's registrations may live on after its response: a handler that hands a registration to
        /// work that ends shortly after the response (a background flush) needs some.
        public let grace: Duration

        /// A middleware that serves each request in a scope of `office`.
        ///
        /// - Parameters:
        ///   - office: The post office the handlers register with.
        ///   - grace: How long a request's registrations may live on after its response; at most
        ///     `MailScope.maximumGrace`.
        public init(_ office: PostOffice, grace: Duration = MailScope.defaultGrace) {
            self.office = office
            self.grace = grace
        }

        /// Serves `request` in a scope named by its method and route, or outside any scope when no route matched.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - context: Its context, whose `endpointPath` names the route.
        ///   - next: The rest of the responder chain.
        /// - Returns: The response of `next`.
        public func handle(
            _ request: Request, context: Context, next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            guard let route = context.endpointPath else { return try await next(request, context) }
            return try await office.scope("\(request.method) \(route)", grace: grace) {
                try await next(request, context)
            }
        }
    }
#endif
