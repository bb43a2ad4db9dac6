# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_3.gp` here to redraw cost_vs_n_polynomial_d_10_degree_3.svg
set terminal svg size 1000,752 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_10_degree_3.svg'
set title 'time against n: polynomial d=10 degree=3 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 10
set label 100 'dual_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1649 left font ',12'
set label 101 'kernel_ridge: lambda=0.001' at screen 0.01, screen 0.1356 left font ',12'
set label 102 'primal_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1064 left font ',12'
set label 103 'primal_ridge: lambda=0.001' at screen 0.01, screen 0.0771 left font ',12'
set label 104 'Crossover primal_ridge / kernel_ridge: not resolved: times below 1 ms at n = 400 or 800.' at screen 0.01, screen 0.0479 left font ',12'
set label 105 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0186 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 477.66731540895324, graph 0 to 477.66731540895324, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 477.7 (333.6 … 576.3)' at 477.66731540895324, 0.0017671390940913285 left point pt 7 ps 1.2 lc rgb '#444444' offset 1,1 font ',12' textcolor rgb '#222222'
set arrow 2 from 286, graph 0 to 286, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'n = D = 286' at 286, graph 0.90 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
80 0.00010948150000000001 5.7097e-05 0.000169611
160 0.000200454 0.00018973799999999998 0.000288545
400 0.0012043940000000001 0.001090403 0.0015373680000000001
800 0.005384581500000001 0.005200290000000001 0.006076917
1600 0.029116886 0.028604277 0.034733802
3200 0.220493901 0.20343149200000002 0.25249000699999996
6400 1.1637827782499999 1.135009158 1.19278654
EOD
$line1 << EOD
80 4.3167e-05 2.9474e-05 0.00012812
160 0.0001170415 0.000108243 0.00020325400000000002
400 0.0009469365 0.000849287 0.001196082
800 0.0060443505 0.005688492999999999 0.00663864
1600 0.036875234 0.036485556 0.038001856
3200 0.26770760050000003 0.260019502 0.29079784200000003
6400 1.95030674125 1.917237149 1.985001516
EOD
$line2 << EOD
80 0.000397577 0.00028444799999999997 0.000633179
160 0.0005950710000000001 0.000543298 0.0006641170000000001
400 0.0014069005000000002 0.001314967 0.0015947869999999999
800 0.00342769 0.003291327 0.003695733
1600 0.0064586755 0.0061921929999999995 0.006872473
3200 0.0128863405 0.012527693000000001 0.026974463
6400 0.02936444775 0.028906168000000003 0.047234644000000006
EOD
$line3 << EOD
80 0.0007472684999999999 0.000490728 0.006613572
160 0.00070041 0.0006552010000000001 0.001229909
400 0.001324239 0.001232089 0.0032052150000000004
800 0.0024904215 0.002355196 0.003069197
1600 0.0043062685 0.004097411 0.005079490000000001
3200 0.008397192 0.008059298 0.027685169000000003
6400 0.01678375 0.016488384 0.042379860000000005
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
