import { RECONNECT_BASE_MS, RECONNECT_MAX_MS } from "./constants";

// The tab's one real-time connection (part 2 §4, §7): WebSocket /ws on this host (wss when the page is https). After
// opening it says who is listening ({type:'auth', userId, dealershipId}); the server decides from the session
// cookie anyway. Closed, it reconnects after 3 s, doubling to 30 s; the attempt counter is never reset (spec), so a
// flapping server is not hammered. Parse and connection errors are only logged (part 2 §8).

export interface Listener {
  userId: string;
  dealershipId: string;
}

/** Delay before reconnect attempt n (0-based): 3 s, 6 s, 12 s, 24 s, then 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_BASE_MS * 2 ** attempt, RECONNECT_MAX_MS);
}

export function socketUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

export class LiveSocket {
  private socket: WebSocket | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private listener: Listener;

  constructor(
    private readonly url: string,
    listener: Listener,
    private readonly onMessage: (text: string) => void,
  ) {
    this.listener = listener;
    this.connect();
  }

  /** The dealership switched (or the user changed): say so on the open socket; a new socket says it on opening. */
  identify(listener: Listener): void {
    this.listener = listener;
    this.sendAuth();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
  }

  private sendAuth(): void {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ type: "auth", userId: this.listener.userId, dealershipId: this.listener.dealershipId }));
  }

  private connect(): void {
    if (this.closed) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      console.error("Real-time connection failed", error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => this.sendAuth());
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") this.onMessage(event.data);
    });
    socket.addEventListener("error", (event) => console.error("Real-time connection error", event));
    socket.addEventListener("close", () => {
      if (this.socket === socket) this.socket = null;
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const delay = reconnectDelay(this.attempts++);
    this.timer = setTimeout(() => this.connect(), delay);
  }
}
