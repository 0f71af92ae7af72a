import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { CACHE_TIMES } from "../../shared/constants";
import type { Agenda, Task } from "../../shared/schemas/responses/tasks";
import type { TaskInput, TaskUpdate } from "../../shared/schemas/task";
import { api } from "../lib/api";

// Data of follow-up tasks and My Day (issue 27). Keys are the paths they read (part 1 §7).

export const agendaKey = (dealershipId: string, date: string, scope: "mine" | "all" = "mine") =>
  ["/api/dealerships", dealershipId, "agenda", `date=${date}`, `scope=${scope}`] as const;
/** The dashboard's Today: my agenda of the dealership's today (the server's clock decides the date). */
export const todayAgendaKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "agenda", "scope=mine"] as const;
export const tasksKey = (dealershipId: string, due: "overdue" | "today" | "upcoming") =>
  ["/api/dealerships", dealershipId, "tasks", "scope=mine", `due=${due}`] as const;
export const leadTasksKey = (leadId: string) => ["/api/leads", leadId, "tasks"] as const;

/** A day's agenda: fresh for 30 s, as today's appointments are (part 1 §9). */
export function useAgenda(dealershipId: string | undefined, date: string, scope: "mine" | "all" = "mine") {
  return useQuery<Agenda>({
    queryKey: agendaKey(dealershipId ?? "", date, scope),
    enabled: Boolean(dealershipId),
    staleTime: CACHE_TIMES.todayAppointmentsStale,
  });
}

/** The dashboard's Today (decision 234): one of the dashboard's first reads (src/shared/first-reads.ts). */
export function useTodayAgenda(dealershipId: string) {
  return useQuery<Agenda>({ queryKey: todayAgendaKey(dealershipId), staleTime: CACHE_TIMES.todayAppointmentsStale });
}

export function useUpcomingTasks(dealershipId: string | undefined) {
  return useQuery<Task[]>({
    queryKey: tasksKey(dealershipId ?? "", "upcoming"),
    enabled: Boolean(dealershipId),
    staleTime: CACHE_TIMES.todayAppointmentsStale,
  });
}

export function useLeadTasks(leadId: string | undefined) {
  return useQuery<Task[]>({ queryKey: leadTasksKey(leadId ?? ""), enabled: Boolean(leadId), staleTime: CACHE_TIMES.todayAppointmentsStale });
}

function invalidateTasks(queryClient: QueryClient, dealershipId: string, leadId?: string): void {
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "agenda"] });
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "tasks"] });
  if (leadId) void queryClient.invalidateQueries({ queryKey: leadTasksKey(leadId) });
}

export function useUpdateTask(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Task, Error, { id: string; change: TaskUpdate }>({
    mutationFn: ({ id, change }) => api.patch<Task>(`/api/tasks/${id}`, change),
    onSuccess: (task) => invalidateTasks(queryClient, dealershipId, task.leadId),
  });
}

export function useCreateTask(dealershipId: string, leadId: string) {
  const queryClient = useQueryClient();
  return useMutation<Task, Error, TaskInput>({
    mutationFn: (input) => api.post<Task>(`/api/leads/${leadId}/tasks`, input),
    onSuccess: () => invalidateTasks(queryClient, dealershipId, leadId),
  });
}
