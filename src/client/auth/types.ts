/** The signed-in user as GET /api/user answers it (never the password hash or two-factor secrets). */
export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  profileImageUrl: string | null;
  currentDealershipId: string | null;
  twoFactorEnabled: boolean;
  createdAt: string;
  updatedAt?: string;
}

export interface PlatformAdminStatus {
  isPlatformAdmin: boolean;
}
