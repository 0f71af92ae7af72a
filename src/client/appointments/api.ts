import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { CACHE_TIMES, type AppointmentStatus } from "../../shared/constants";
import type { AppointmentInput, CalendarFeedScope } from "../../shared/schemas/appointment";
import type { Appointment, AppointmentDay, CalendarFeedCreated, CalendarFeedInfo } from "../../shared/schemas/responses/appointments";
import { api } from "../lib/api";

// Data of the appointments area (spec part 1 §7 appointment calls, §9 freshness; decisions 021-023).
// Keys are the paths they read: ["/api/dealerships", id, "appointments", "date=2026-11-22"] reads
// /api/dealerships/{id}/appointments?date=2026-11-22. The answers' types come from the response schemas (decision 053).

export const appointmentsRootKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "appointments"] as const;
export const dayAppointmentsKey = (dealershipId: string, date: string) => [...appointmentsRootKey(dealershipId), `date=${date}`] as const;
export const appointmentDaysKey = (dealershipId: string, from: string, to: string) =>
  [...appointmentsRootKey(dealershipId), "days", `from=${from}`, `to=${to}`] as const;
export const upcomingAppointmentsKey = (dealershipId: string) => [...appointmentsRootKey(dealershipId), "type=upcoming"] as const;
export const leadAppointmentsKey = (leadId: string) => ["/api/appointments", `leadId=${leadId}`] as const;
export const calendarFeedKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "calendar-feed"] as const;

/** One day of the calendar; today's list is fresh for 30 s, others for 2 min (part 1 §9). */
export function useDayAppointments(dealershipId: string | undefined, date: string, isToday: boolean) {
  return useQuery<Appointment[]>({
    queryKey: dayAppointmentsKey(dealershipId ?? "", date),
    enabled: Boolean(dealershipId),
    staleTime: isToday ? CACHE_TIMES.todayAppointmentsStale : CACHE_TIMES.appointmentsStale,
  });
}

export function useAppointmentDays(dealershipId: string | undefined, from: string, to: string) {
  return useQuery<AppointmentDay[]>({
    queryKey: appointmentDaysKey(dealershipId ?? "", from, to),
    enabled: Boolean(dealershipId),
    staleTime: CACHE_TIMES.appointmentsStale,
    placeholderData: (previous) => previous,
  });
}

/** The dashboard panel: the next 5 on the dealership's clock (part 1 §2.3), decided by the server. */
export function useUpcomingAppointments(dealershipId: string) {
  return useQuery<Appointment[]>({
    queryKey: upcomingAppointmentsKey(dealershipId),
    staleTime: CACHE_TIMES.todayAppointmentsStale,
  });
}

export function useLeadAppointments(leadId: string | undefined) {
  return useQuery<Appointment[]>({
    queryKey: leadAppointmentsKey(leadId ?? ""),
    enabled: Boolean(leadId),
    staleTime: CACHE_TIMES.appointmentsStale,
  });
}

/** After any appointment write: every appointment list of the dealership, lead lists, and the dashboard metrics. */
export function invalidateAppointments(queryClient: QueryClient, dealershipId: string): void {
  void queryClient.invalidateQueries({ queryKey: appointmentsRootKey(dealershipId) });
  void queryClient.invalidateQueries({ queryKey: ["/api/appointments"] });
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "metrics"] });
  // The calendar's day and My Day read the agenda (decision 230).
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "agenda"] });
}

export function useCreateAppointment(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Appointment, Error, AppointmentInput>({
    mutationFn: (input) => api.post<Appointment>(`/api/dealerships/${dealershipId}/appointments`, input),
    onSuccess: () => invalidateAppointments(queryClient, dealershipId),
  });
}

/** PATCH /api/appointments/{id}/status; the day list shows the answer at once, then everything refetches. */
export function useSetAppointmentStatus(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Appointment, Error, { appointment: Appointment; status: AppointmentStatus }>({
    mutationFn: ({ appointment, status }) => api.patch<Appointment>(`/api/appointments/${appointment.id}/status`, { status }),
    onSuccess: (updated) => {
      queryClient.setQueryData<Appointment[]>(dayAppointmentsKey(dealershipId, updated.date), (list) =>
        list?.map((a) => (a.id === updated.id ? updated : a)),
      );
      invalidateAppointments(queryClient, dealershipId);
    },
  });
}

export function useCalendarFeed(dealershipId: string, enabled: boolean) {
  return useQuery<CalendarFeedInfo>({ queryKey: calendarFeedKey(dealershipId), enabled, staleTime: 0 });
}

export function useIssueCalendarFeed(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<CalendarFeedCreated, Error, CalendarFeedScope>({
    mutationFn: (scope) => api.post<CalendarFeedCreated>(`/api/dealerships/${dealershipId}/calendar-feed`, { scope }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarFeedKey(dealershipId) }),
  });
}

export function useDeleteCalendarFeed(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<unknown, Error, void>({
    mutationFn: () => api.delete(`/api/dealerships/${dealershipId}/calendar-feed`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarFeedKey(dealershipId) }),
  });
}
