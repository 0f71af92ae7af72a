import { describe, expect, it } from "vitest";
import { decodeVin, vinFactsText, vinModelYear } from "./vin-decode";

// VIN decoding (issue 30, decision 189): real VINs of the makers a dealership sells, each with its WMI's maker, the
// country of position 1 and the model year of position 10 (position 7 choosing the 30-year cycle).

const VINS: Array<[string, string, string | null, number]> = [
  ["1HGCM82633A004352", "Honda", "United States", 2003],
  ["2HGFC2F59MH512345", "Honda", "Canada", 2021],
  ["5YJ3E1EA7KF317000", "Tesla", "United States", 2019],
  ["WBA3A5C51CF256985", "BMW", "Germany", 2012],
  ["JTDKN3DU0A0123456", "Toyota", "Japan", 2010],
  ["KM8J33A41LU123456", "Hyundai", "South Korea", 2020],
  ["3FA6P0H72HR123456", "Ford", "Mexico", 2017],
  ["1GCUYDED5LZ123456", "Chevrolet", "United States", 2020],
  ["YV4A22PK6G1234567", "Volvo", "Sweden", 2016],
  ["ZFF79ALA4J0123456", "Ferrari", "Italy", 2018],
];

describe("decodeVin", () => {
  it.each(VINS)("%s is a %s built in %s, model year %i", (vin, manufacturer, country, modelYear) => {
    expect(decodeVin(vin)).toEqual({ manufacturer, country, modelYear });
  });

  it("names no maker for a WMI it does not know, and no year for a position 10 that is no year code", () => {
    expect(decodeVin("9BWZZZ377VT004251")).toEqual({ manufacturer: null, country: null, modelYear: 1997 });
    expect(decodeVin("1HGCM8263UA004352").modelYear).toBeNull();
  });

  it("reads position 7: a digit is the 1980-2009 cycle, a letter 2010-2039; the inventory's year wins when it is one of them", () => {
    expect(vinModelYear("1HGCM82633A004352")).toBe(2003);
    expect(vinModelYear("1HGCM8A633A004352")).toBe(2033);
    expect(vinModelYear("1HGCM82633A004352", 2033)).toBe(2033);
    expect(vinModelYear("1HGCM82633A004352", 1999)).toBe(2003);
  });

  it("says it in one line, leaving out what it cannot tell", () => {
    expect(vinFactsText("2HGFC2F59MH512345")).toBe("Honda · built in Canada · model year 2021");
    expect(vinFactsText("5YJ3E1EA7KF317000")).toBe("Tesla · built in the United States · model year 2019");
    expect(vinFactsText("9BWZZZ377VT004251")).toBe("model year 1997");
  });
});
