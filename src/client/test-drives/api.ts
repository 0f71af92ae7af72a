import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import type { CreateTestDriveInput, TestDrive, TestDriveDetailStatus, TestDriveStatus, UpdateTestDriveInput } from "../../shared/schemas/test-drive";
import type { CreateTestDriveUnitInput, CreateVehicleInput, TestDriveUnit, Vehicle, VehicleCondition } from "../../shared/schemas/vehicle";
import { api, apiRequest } from "../lib/api";
import { pathFromQueryKey } from "../lib/query-key";
import { nextPageUrl } from "../leads/api";

// Data of the test-drive area (spec part 2 §7 test drives and vehicles; the screens: decision 067).
// Keys are the paths they read (decision 040); every write refreshes what it changes: the inventory, the units, the
// drives, a lead's drives, the dashboard metrics and the analytics.

const INVENTORY_STALE = 30_000;

export const vehiclesRootKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "vehicles"] as const;
export const unitsRootKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "test-drive-units"] as const;

export interface VehicleFilters {
  q?: string;
  condition?: VehicleCondition | "";
  status?: "available" | "out" | "";
  year?: string;
}

export function vehicleListKey(dealershipId: string, filters: VehicleFilters = {}) {
  const parts: string[] = [];
  if (filters.q) parts.push(`q=${filters.q}`);
  if (filters.condition) parts.push(`condition=${filters.condition}`);
  if (filters.status) parts.push(`status=${filters.status}`);
  if (filters.year && /^\d{4}$/.test(filters.year)) parts.push(`year=${filters.year}`);
  return [...vehiclesRootKey(dealershipId), ...parts] as const;
}

interface Page<T> {
  items: T[];
  next: string | null;
}

async function fetchPage<T>(url: string): Promise<Page<T>> {
  const response = await apiRequest("GET", url);
  return { items: (await response.json()) as T[], next: nextPageUrl(response.headers.get("link")) };
}

/** A paged list (pages in the Link header, as the leads lists): `items` is every loaded row. */
function usePagedList<T>(key: readonly unknown[], enabled: boolean) {
  const query = useInfiniteQuery<Page<T>, Error, InfiniteData<Page<T>, string>, readonly unknown[], string>({
    queryKey: key,
    enabled,
    staleTime: INVENTORY_STALE,
    initialPageParam: pathFromQueryKey(key),
    queryFn: ({ pageParam }) => fetchPage<T>(pageParam),
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: (previous) => previous,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) ?? [] };
}

export function useVehicles(dealershipId: string | undefined, filters: VehicleFilters = {}) {
  return usePagedList<Vehicle>(vehicleListKey(dealershipId ?? "", filters), Boolean(dealershipId));
}

export function useTestDriveUnits(dealershipId: string | undefined, q = "") {
  const key = q ? [...unitsRootKey(dealershipId ?? ""), `q=${q}`] : unitsRootKey(dealershipId ?? "");
  return usePagedList<TestDriveUnit>(key, Boolean(dealershipId));
}

/** After anything that changes who has which vehicle: inventory, units, drives, metrics and analytics. */
export function invalidateTestDriveData(queryClient: QueryClient, dealershipId: string): void {
  void queryClient.invalidateQueries({ queryKey: vehiclesRootKey(dealershipId) });
  void queryClient.invalidateQueries({ queryKey: unitsRootKey(dealershipId) });
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "test-drives"] });
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "sales-rep-analytics"] });
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "metrics"] });
  void queryClient.invalidateQueries({ queryKey: ["/api/test-drives"] });
  // The calendar's day and My Day show booked drives (decision 230).
  void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "agenda"] });
}

export function useAddVehicle(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Vehicle, Error, CreateVehicleInput>({
    mutationFn: (input) => api.post<Vehicle>(`/api/dealerships/${dealershipId}/vehicles`, input),
    onSuccess: () => invalidateTestDriveData(queryClient, dealershipId),
  });
}

export function useRemoveVehicle(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<MessageResponse, Error, string>({
    mutationFn: (vehicleId) => api.delete<MessageResponse>(`/api/vehicles/${vehicleId}`),
    onSuccess: () => invalidateTestDriveData(queryClient, dealershipId),
  });
}

/** "Mark Returned" (part 2 §4, §7): PUT status available ends the vehicle's open drive on the server. */
export function useReturnVehicle(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<Vehicle, Error, string>({
    mutationFn: (vehicleId) => api.put<Vehicle>(`/api/vehicles/${vehicleId}/test-drive-status`, { status: "available", clientName: null }),
    onSettled: () => invalidateTestDriveData(queryClient, dealershipId),
  });
}

export function useAddTestDriveUnit(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<TestDriveUnit, Error, CreateTestDriveUnitInput>({
    mutationFn: (input) => api.post<TestDriveUnit>(`/api/dealerships/${dealershipId}/test-drive-units`, input),
    onSuccess: () => invalidateTestDriveData(queryClient, dealershipId),
  });
}

export function useRemoveTestDriveUnit(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<MessageResponse, Error, string>({
    mutationFn: (unitId) => api.delete<MessageResponse>(`/api/test-drive-units/${unitId}`),
    onSuccess: () => invalidateTestDriveData(queryClient, dealershipId),
  });
}

/** "Return Demo" of a unit. */
export function useReturnTestDriveUnit(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<TestDriveUnit, Error, string>({
    mutationFn: (unitId) => api.put<TestDriveUnit>(`/api/test-drive-units/${unitId}/status`, { status: "available", clientName: null }),
    onSettled: () => invalidateTestDriveData(queryClient, dealershipId),
  });
}

// ---- Test drives ----

export const testDriveKey = (testDriveId: string) => ["/api/test-drives", testDriveId] as const;
export const leadTestDrivesKey = (leadId: string) => ["/api/test-drives", `leadId=${leadId}`] as const;
export const dealershipTestDrivesKey = (dealershipId: string, status?: TestDriveStatus) =>
  ["/api/dealerships", dealershipId, "test-drives", ...(status ? [`status=${status}`] : [])] as const;

export function useTestDrive(testDriveId: string | undefined) {
  return useQuery<TestDrive>({
    queryKey: testDriveKey(testDriveId ?? ""),
    enabled: Boolean(testDriveId),
    // A missing drive is an answer ("Test Drive Not Found"), not something to retry.
    retry: false,
  });
}

/** A lead's drives for its detail page (GET /api/test-drives?leadId=, decision 064). */
export function useLeadTestDrives(leadId: string) {
  return useQuery<TestDrive[]>({ queryKey: leadTestDrivesKey(leadId), staleTime: INVENTORY_STALE });
}

/** The dealership's drives: status=scheduled lists the bookings from today on, soonest first. */
export function useDealershipTestDrives(dealershipId: string | undefined, status?: TestDriveStatus) {
  return useQuery<TestDrive[]>({ queryKey: dealershipTestDrivesKey(dealershipId ?? "", status), enabled: Boolean(dealershipId), staleTime: INVENTORY_STALE });
}

/** Take out now (status out) or book (status scheduled): POST /api/test-drives. A new client becomes a lead too. */
export function useCreateTestDrive(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<TestDrive, Error, CreateTestDriveInput>({
    mutationFn: (input) => api.post<TestDrive>("/api/test-drives", input),
    onSettled: () => {
      invalidateTestDriveData(queryClient, dealershipId);
      // The new client's lead shows up in the leads lists.
      void queryClient.invalidateQueries({ queryKey: ["/api/dealerships", dealershipId, "leads"] });
    },
  });
}

function useTestDriveWrite<V>(dealershipId: string, testDriveId: string, call: (input: V) => Promise<TestDrive>) {
  const queryClient = useQueryClient();
  return useMutation<TestDrive, Error, V>({
    mutationFn: call,
    onSuccess: (drive) => queryClient.setQueryData(testDriveKey(testDriveId), drive),
    onSettled: () => invalidateTestDriveData(queryClient, dealershipId),
  });
}

export function useUpdateTestDrive(dealershipId: string, testDriveId: string) {
  return useTestDriveWrite<UpdateTestDriveInput>(dealershipId, testDriveId, (input) => api.patch<TestDrive>(`/api/test-drives/${testDriveId}`, input));
}

export function useSetTestDriveStatus(dealershipId: string, testDriveId: string) {
  return useTestDriveWrite<TestDriveDetailStatus>(dealershipId, testDriveId, (status) => api.patch<TestDrive>(`/api/test-drives/${testDriveId}/status`, { status }));
}

/** Ends the open drive (returnedAt, duration, the vehicle available again). */
export function useReturnTestDrive(dealershipId: string, testDriveId: string) {
  return useTestDriveWrite<void>(dealershipId, testDriveId, () => api.post<TestDrive>(`/api/test-drives/${testDriveId}/return`));
}

export function useDeleteTestDrive(dealershipId: string) {
  const queryClient = useQueryClient();
  return useMutation<MessageResponse, Error, string>({
    mutationFn: (testDriveId) => api.delete<MessageResponse>(`/api/test-drives/${testDriveId}`),
    onSuccess: (_data, testDriveId) => {
      queryClient.removeQueries({ queryKey: testDriveKey(testDriveId) });
      invalidateTestDriveData(queryClient, dealershipId);
    },
  });
}
