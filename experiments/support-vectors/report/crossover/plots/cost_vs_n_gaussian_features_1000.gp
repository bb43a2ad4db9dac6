# kexp plot; run `gnuplot cost_vs_n_gaussian_features_1000.gp` here to redraw cost_vs_n_gaussian_features_1000.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian_features_1000.svg'
set title 'time against n: gaussian features=1000 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'linear_svc: bias=regularized, c=1, epochs=1000, loss=hinge, tolerance=0.001' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'svc: bias=regularized, c=1, cache_bytes=0, iterations=10000000, loss=hinge, shrinking=true, tolerance=0.001' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
set arrow 1 from 23292.18943938232, graph 0 to 23292.18943938232, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover: n ≈ 2.329e+04 (486.2 … 2.353e+04)' at 23292.18943938232, 1.086350622174702 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 2 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'n = D = 1000' at 1000, graph 0.90 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
250 0.003052705 0.002877574 0.0044649239999999995
500 0.009108719 0.004945837 0.019443221
1000 0.025418996 0.017118703 0.04404617200000001
2000 0.057455017500000004 0.052738591 0.071369378
4000 0.07448178400000001 0.06133413100000001 0.0901708
10000 0.389935134 0.389831102 0.396365783
20000 0.951936501 0.940776186 0.959504068
40000 1.7359085909999998 1.730885418 1.7449723019999999
100000 3.982972824 3.982786355 3.999170958
EOD
$line1 << EOD
250 0.00047418899999999997 0.00043143200000000004 0.000634506
500 0.001256001 0.00098443 0.005270602
1000 0.003280249 0.002928239 0.0039688779999999995
2000 0.0259538125 0.024546754 0.02745441
4000 0.032640246000000005 0.031684164 0.037607628000000004
10000 0.2689161315 0.268779732 0.27375286499999996
20000 0.8492260189999999 0.8489899759999999 0.849462062
40000 2.6030632760000003 2.6030632760000003 2.6030632760000003
100000 24.792976736 24.792976736 24.792976736
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'svc (dual)'
