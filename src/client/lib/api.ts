// The one way the client talks to the server (part 1 §7): credentials always, a JSON content type for JSON bodies,
// form data sent as is, and any non-OK response becomes an error "status: response text (or status text)".

import { takeFirstRead } from "./first-screen";

export interface ApiErrorBody {
  message?: string;
  fields?: Record<string, string>;
  [key: string]: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  /** The parsed JSON body, when the server answered JSON (our server always does: {message, fields?}). */
  readonly data: ApiErrorBody | undefined;
  readonly responseText: string;

  constructor(status: number, statusText: string, responseText: string) {
    super(formatErrorMessage(status, statusText, responseText));
    this.name = "ApiError";
    this.status = status;
    this.responseText = responseText;
    this.data = parseJson(responseText);
  }
}

/** part 1 §7: the status code, a colon, and the response text or status text. */
export function formatErrorMessage(status: number, statusText: string, responseText: string): string {
  return `${status}: ${responseText || statusText}`;
}

function parseJson(text: string): ApiErrorBody | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as ApiErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

export async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => "");
  throw new ApiError(response.status, response.statusText, text);
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Sends a request and answers the Response; throws ApiError when it is not OK. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, credentials: "include", headers: { ...headers } };
  if (body instanceof FormData || body instanceof Blob) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers = { "Content-Type": "application/json", ...headers };
    init.body = JSON.stringify(body);
  }
  // The first screen's own reads may already be in the page (decision 161).
  const response = (method === "GET" && takeFirstRead(url)) || (await fetch(url, init));
  await throwIfNotOk(response);
  return response;
}

/** apiRequest and the parsed JSON answer (undefined for an empty body). */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const response = await apiRequest(method, url, body);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(url: string) => apiJson<T>("GET", url),
  post: <T>(url: string, body?: unknown) => apiJson<T>("POST", url, body),
  put: <T>(url: string, body?: unknown) => apiJson<T>("PUT", url, body),
  patch: <T>(url: string, body?: unknown) => apiJson<T>("PATCH", url, body),
  delete: <T>(url: string) => apiJson<T>("DELETE", url),
};

export function errorStatus(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  const match = error instanceof Error ? /^(\d{3}): /.exec(error.message) : null;
  return match ? Number(match[1]) : undefined;
}

/** The server's message for a toast: {message} of the body, else the response text, else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (typeof error.data?.message === "string" && error.data.message) return error.data.message;
    if (error.responseText && !error.responseText.trimStart().startsWith("<")) return error.responseText;
    return fallback;
  }
  return fallback;
}

/** The per-field messages of a 400 answer ({fields: {name: message}}), if any. */
export function fieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError && error.data?.fields ? error.data.fields : {};
}

/** part 1 §8: only network-type failures are retried. */
export function isNetworkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes("NetworkError") || message.includes("fetch");
}

/** part 1 §8: the session is gone. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("401") && error.message.includes("Unauthorized");
}
