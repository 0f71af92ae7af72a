import { vinModelYears } from "./schemas/vehicle";

// What a VIN says without asking anyone (issue 30, decision 189): the manufacturer from its World Manufacturer
// Identifier (positions 1-3, ISO 3780), the country it was built in from position 1, and the model year from position
// 10. No kept npm package decodes WMIs offline without a database (the ones there are call NHTSA's web service or ship
// its SQLite file), so this is a small table of the makers a North American dealership sells; an unknown WMI shows
// none. A VIN assigned for a maker's plant elsewhere is still that maker.

/** WMI → manufacturer, for the makers sold in Canada and the United States. */
const WMI: Record<string, string> = {
  // Honda, Acura
  "1HG": "Honda", "2HG": "Honda", "2HK": "Honda", "5FN": "Honda", "5J6": "Honda", "JHM": "Honda", "SHH": "Honda", "19X": "Honda",
  "19U": "Acura", "JH4": "Acura", "5J8": "Acura",
  // Toyota, Lexus
  "JTD": "Toyota", "JTE": "Toyota", "JTM": "Toyota", "JTN": "Toyota", "JTL": "Toyota", "4T1": "Toyota", "4T3": "Toyota", "4T4": "Toyota",
  "5TD": "Toyota", "5TF": "Toyota", "5YF": "Toyota", "2T1": "Toyota", "2T3": "Toyota", "3TM": "Toyota", "7MU": "Toyota",
  "JTH": "Lexus", "JTJ": "Lexus", "2T2": "Lexus", "58A": "Lexus",
  // Ford, Lincoln
  "1FA": "Ford", "1FB": "Ford", "1FC": "Ford", "1FD": "Ford", "1FM": "Ford", "1FT": "Ford", "2FM": "Ford", "2FT": "Ford",
  "3FA": "Ford", "3FM": "Ford", "3FT": "Ford", "WF0": "Ford", "MAJ": "Ford",
  "1LN": "Lincoln", "2LM": "Lincoln", "5LM": "Lincoln",
  // General Motors
  "1G1": "Chevrolet", "1GC": "Chevrolet", "1GN": "Chevrolet", "1GB": "Chevrolet", "2G1": "Chevrolet", "2GN": "Chevrolet", "3G1": "Chevrolet",
  "3GC": "Chevrolet", "3GN": "Chevrolet", "KL1": "Chevrolet", "KL7": "Chevrolet", "KL8": "Chevrolet",
  "1GT": "GMC", "1GK": "GMC", "2GT": "GMC", "2GK": "GMC", "3GT": "GMC", "3GK": "GMC",
  "1G4": "Buick", "2G4": "Buick", "5GA": "Buick", "KL4": "Buick", "LRB": "Buick",
  "1G6": "Cadillac", "1GY": "Cadillac",
  // Stellantis
  "1C3": "Chrysler", "2C3": "Chrysler", "2C4": "Chrysler",
  "1B3": "Dodge", "2B3": "Dodge", "2D3": "Dodge", "3D4": "Dodge", "1D3": "Dodge", "1D7": "Dodge",
  "1C4": "Jeep", "1J4": "Jeep", "1J8": "Jeep", "ZAC": "Jeep",
  "1C6": "Ram", "3C6": "Ram", "3C7": "Ram",
  "ZFA": "Fiat", "3C3": "Fiat", "ZAR": "Alfa Romeo", "ZAS": "Alfa Romeo", "ZAM": "Maserati",
  // Nissan, Infiniti
  "1N4": "Nissan", "1N6": "Nissan", "3N1": "Nissan", "3N6": "Nissan", "5N1": "Nissan", "JN1": "Nissan", "JN8": "Nissan",
  "JNK": "Infiniti", "JNR": "Infiniti", "5N3": "Infiniti",
  // Hyundai, Kia, Genesis
  "KMH": "Hyundai", "KM8": "Hyundai", "5NP": "Hyundai", "5NM": "Hyundai", "5NT": "Hyundai",
  "KNA": "Kia", "KND": "Kia", "5XX": "Kia", "5XY": "Kia", "3KP": "Kia",
  "KMT": "Genesis",
  // Mazda, Subaru, Mitsubishi, Suzuki
  "JM1": "Mazda", "JM3": "Mazda", "3MZ": "Mazda", "3MV": "Mazda",
  "JF1": "Subaru", "JF2": "Subaru", "4S3": "Subaru", "4S4": "Subaru",
  "JA3": "Mitsubishi", "JA4": "Mitsubishi", "4A3": "Mitsubishi", "4A4": "Mitsubishi", "ML3": "Mitsubishi",
  "JS1": "Suzuki", "JS2": "Suzuki", "JS3": "Suzuki",
  // Volkswagen group
  "WVW": "Volkswagen", "WVG": "Volkswagen", "WV1": "Volkswagen", "WV2": "Volkswagen", "1VW": "Volkswagen", "3VW": "Volkswagen", "3VV": "Volkswagen",
  "WAU": "Audi", "WA1": "Audi", "WUA": "Audi", "TRU": "Audi",
  "WP0": "Porsche", "WP1": "Porsche",
  // BMW, Mercedes-Benz
  "WBA": "BMW", "WBS": "BMW", "WBX": "BMW", "WBY": "BMW", "5UX": "BMW", "5YM": "BMW", "4US": "BMW",
  "WMW": "MINI",
  "WDB": "Mercedes-Benz", "WDC": "Mercedes-Benz", "WDD": "Mercedes-Benz", "W1K": "Mercedes-Benz", "W1N": "Mercedes-Benz",
  "W1V": "Mercedes-Benz", "4JG": "Mercedes-Benz", "55S": "Mercedes-Benz",
  // Volvo, Polestar, Jaguar Land Rover
  "YV1": "Volvo", "YV4": "Volvo", "7JR": "Volvo", "LVY": "Volvo",
  "LPS": "Polestar",
  "SAL": "Land Rover", "SAJ": "Jaguar", "SAD": "Jaguar",
  // Electric makers
  "5YJ": "Tesla", "7SA": "Tesla", "LRW": "Tesla", "XP7": "Tesla",
  "7FC": "Rivian", "50E": "Lucid",
  // Exotics
  "ZFF": "Ferrari", "ZHW": "Lamborghini", "SCF": "Aston Martin", "SBM": "McLaren", "SCB": "Bentley", "SCA": "Rolls-Royce",
};

/** Position 1: where the vehicle was built (the regions ISO 3780 gives whole; others are left unnamed). */
const COUNTRY: Record<string, string> = {
  "1": "United States", "4": "United States", "5": "United States",
  "2": "Canada",
  "3": "Mexico",
  J: "Japan",
  K: "South Korea",
  L: "China",
  W: "Germany",
  Y: "Sweden",
  Z: "Italy",
};

export interface VinFacts {
  /** "Hyundai", or null for a WMI not in the table. */
  manufacturer: string | null;
  /** Where it was built ("United States"), or null when position 1 names no single country we list. */
  country: string | null;
  /** The model year from position 10, or null when position 10 is no year code. */
  modelYear: number | null;
}

/**
 * The model year of position 10. A code repeats every 30 years; for cars and light trucks position 7 tells the cycle
 * (49 CFR 565.15): a letter from 2010 on, a digit before. `knownYear` (the year the inventory holds) picks among the
 * candidates first, when it is one of them.
 */
export function vinModelYear(vin: string, knownYear?: number): number | null {
  const years = vinModelYears(vin);
  if (years.length === 0) return null;
  if (knownYear !== undefined && years.includes(knownYear)) return knownYear;
  const fromTwentyTen = /[A-Z]/.test(vin[6] ?? "");
  return years.find((y) => (fromTwentyTen ? y >= 2010 && y < 2040 : y < 2010)) ?? null;
}

/** What a 17-character VIN tells: manufacturer, country of assembly, model year. */
export function decodeVin(vin: string, knownYear?: number): VinFacts {
  const upper = vin.toUpperCase();
  return {
    manufacturer: WMI[upper.slice(0, 3)] ?? null,
    country: COUNTRY[upper[0] ?? ""] ?? null,
    modelYear: upper.length === 17 ? vinModelYear(upper, knownYear) : null,
  };
}

/** "Hyundai · built in the United States · model year 2025", or null when the VIN tells none of it. */
export function vinFactsText(vin: string, knownYear?: number): string | null {
  const facts = decodeVin(vin, knownYear);
  const parts = [facts.manufacturer, facts.country && `built in ${facts.country === "United States" ? "the United States" : facts.country}`, facts.modelYear && `model year ${facts.modelYear}`];
  const text = parts.filter(Boolean).join(" · ");
  return text || null;
}
