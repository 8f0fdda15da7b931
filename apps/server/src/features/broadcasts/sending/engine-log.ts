/** Where the broadcast engine, its senders and its audience writer log (the worker's pino logger). */
export interface EngineLog {
  info: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
}
