import { Menu } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "../ui/sheet";
import { Brand } from "./brand";
import { DealershipSwitcher } from "./dealership-switcher";
import type { NavItem } from "./nav";
import { NavList } from "./nav-list";

/** The phone's navigation drawer (radix dialog), loaded after the first screen by ./app-shell.tsx (issue 12). */
export function MobileMenu({ items }: { items: NavItem[] }) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu">
          <Menu className="size-5" />
        </Button>
      </SheetTrigger>
      <SheetContent>
        <div className="flex h-16 items-center border-b px-4">
          <SheetTitle asChild>
            <div>
              <Brand />
            </div>
          </SheetTitle>
          <SheetDescription className="sr-only">Navigation</SheetDescription>
        </div>
        <div className="flex flex-1 flex-col gap-5 overflow-y-auto p-3">
          <DealershipSwitcher className="w-full" />
          <NavList items={items} onNavigate={() => setMenuOpen(false)} />
        </div>
      </SheetContent>
    </Sheet>
  );
}
