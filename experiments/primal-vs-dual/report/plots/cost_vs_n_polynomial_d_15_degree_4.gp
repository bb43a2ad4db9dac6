# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_4.gp` here to redraw cost_vs_n_polynomial_d_15_degree_4.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_15_degree_4.svg'
set title 'time against n: polynomial d=15 degree=4 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 3677.8282013963562, graph 0 to 3677.8282013963562, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover primal_gd / dual_gd: n ≈ 3678 (2738 … 4804)' at 3677.8282013963562, graph 0.960 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 50 '' at 3677.8282013963562, 0.8847603975272931 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 2 from 5534.863200198145, graph 0 to 5534.863200198145, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'crossover primal_ridge / kernel_ridge: n ≈ 5535 (5415 … 5662)' at 5534.863200198145, graph 0.830 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 51 '' at 5534.863200198145, 2.213516029069929 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 3 from 3876, graph 0 to 3876, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 3 'n = D = 3880' at 3876, graph 0.895 right offset -0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
80 7.2797e-05 6.5208e-05 0.000151568
160 0.00026109349999999996 0.00020734800000000002 0.000464565
400 0.0012475160000000002 0.0011569080000000001 0.005665867999999999
800 0.016783736 0.015995714 0.035606436000000005
1600 0.07259784150000001 0.067541801 0.108607671
3200 0.636322237 0.596217305 0.676805361
6400 3.2857284005 3.177809392 3.3917228299999995
EOD
$line1 << EOD
80 3.998000000000001e-05 3.6764e-05 0.000155021
160 0.00014547250000000001 0.00014119799999999999 0.00031487999999999997
400 0.0010175689999999999 0.0009312719999999999 0.009273161
800 0.007024549999999999 0.0052191699999999995 0.026068198999999997
1600 0.05150190025 0.045080210999999995 0.095826114
3200 0.6145853085 0.606446079 0.62466315
6400 3.1087744589999997 3.067255845 3.149320198
EOD
$line2 << EOD
80 0.01359136025 0.008735118 0.018962703
160 0.053903636500000005 0.038342793 0.074340637
400 0.095950763 0.08976313699999999 0.106661614
800 0.1940565125 0.168216241 0.229990267
1600 0.3318271585 0.323340338 0.3434936
3200 0.69512908425 0.49309623899999994 0.9021027669999999
6400 2.3111384865 2.259840871 2.3722460619999994
EOD
$line3 << EOD
80 0.6481635245 0.624730145 0.672612177
160 0.662011804 0.6538026050000001 0.677589356
400 0.6785541945 0.6293985830000001 0.737740818
800 0.8371508595 0.7996787930000001 0.8808871859999999
1600 1.0469481600000001 1.0389077990000002 1.062412662
3200 1.4268211597500002 1.382548719 1.486562769
6400 2.486756561 2.44696013 2.529994234
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
